#!/usr/bin/env bash
# `make test`'s style check: swift-format (shipped with the toolchain) with the checked-in
# .swift-format (2-space indentation, 130 columns), strict, over Sources, Tests, fuzz and
# Package.swift. Any finding fails, layout included; `make format` rewrites the tree in place.
# The generators (scripts/gen-*.py) write files that already pass.
# The rules the code does not follow, disabled in .swift-format: DoNotUseSemicolons,
# OneVariableDeclarationPerLine, OrderedImports, OnlyOneTrailingClosureArgument,
# ReplaceForEachWithForLoop.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
out=$("$SWIFT" format lint --strict -r Sources Tests fuzz Package.swift 2>&1)
status=$?
failing=$(grep -E 'error|warning' <<<"$out")
if [ -n "$failing" ] || [ $status != 0 ]; then
  printf '%s\n' "${failing:-$out}" >&2
  echo "lint: swift-format found the problems above (.swift-format; \`make format\` fixes layout)" >&2
  exit 1
fi
# No Swift file over 350 lines (issue 30): a file that grows past it is split along its seams.
long=$(find Sources Tests fuzz -name '*.swift' -not -path '*/Generated/*' -print0 | xargs -0 wc -l | awk '$2 != "total" && $1 > 350')
if [ -n "$long" ]; then
  printf '%s\n' "$long" >&2
  echo "lint: Swift files over 350 lines: split each along its seams" >&2
  exit 1
fi
