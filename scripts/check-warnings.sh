#!/usr/bin/env bash
# Fails when a build log holds a compiler warning in the project's own code (Sources, Tests,
# fuzz); dependencies' warnings are theirs. Usage: check-warnings.sh BUILD_LOG
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$1" ] || { echo "check-warnings: no build log $1" >&2; exit 1; }
warnings=$(grep -aE "^$root/(Sources|Tests|fuzz)/[^:]+:[0-9]+:[0-9]+: warning:" "$1" | sort -u || true)
if [ -n "$warnings" ]; then
  echo "$warnings" >&2
  echo "check-warnings: $(echo "$warnings" | wc -l) warning(s) in the project's own code" >&2
  exit 1
fi
echo "check-warnings: no warnings in the project's own code"
