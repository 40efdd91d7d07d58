#!/usr/bin/env bash
# `make test` (the Makefile says what it covers): the checks, three builds and the two suites,
# arranged so that the two cores are rarely idle while something is left to do.
#
#   1. the generated fold table is current, and swift-format's rules (scripts/lint.sh);
#   2. at once: the debug test bundle (its own build folder, .build/tests: SwiftPM locks one
#      folder per build; without debug information, -gnone: 269 s of CPU were 194), wx in
#      release as `make install` builds it (.build), and the feed client wx-aqi-watch
#      (.build/aqi-watch: SwiftNIO, the longest build), scheduled only on an idle
#      CPU (SCHED_IDLE, `chrt --idle`: SwiftPM's build system puts its compilers back to nice 0
#      but keeps the scheduling policy), so it takes what the other builds and the suites
#      leave and slows neither (as equals, they ran slower and cost more CPU: PERFORMANCE.md);
#   3. the completion table is current (on the release binary), and the shared data folder
#      is built once by it (TEST_SHARE);
#   4. WXCore's suite on the debug bundle (its assertions on) and the end-to-end suite on the
#      release binary, in one run, but for the tests that run wx-aqi-watch;
#   5. once wx-aqi-watch is built: those tests.
# No build may print a compiler warning in the project's own code (scripts/check-warnings.sh).
# Each step prints how long it took. Usage: bash scripts/test.sh (SWIFT, MAKE from make).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
MAKE=${MAKE:-make}
ROOT=$PWD
TESTS=.build/tests
SHARE=$ROOT/.build/test-share
# The tests that run wx-aqi-watch: they wait for its build. (CommandShapeTests checks that
# every test that runs `wx aqi watch` is matched.)
FEED='wxTests\.(AQIWatchTests|FeedClientLinkTests|AQIChartTests/asciiAndUnicodeChartsOfAKnownSeries|OpenMeteoTests/aqiShowChartsOneScaleOfAMixedHistory|SyncFailureTests/anImpossibleHostIsRefusedAtOnce)'

t0=$(date +%s)
step() { printf '== make test: %s (%d s)\n' "$*" $(($(date +%s) - t0)); }
pids=()
trap 'for p in "${pids[@]}"; do kill -- -"$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done' EXIT
# Runs a build in the background, in its own process group (stopped whole on failure), its
# output kept in a log that is shown when it ends.
background() {  # background LOG normal|idle COMMAND...
  local log=$1 priority=$2
  shift 2
  [ "$priority" = idle ] && set -- chrt --idle 0 "$@"
  set -m
  ("$@" >"$log" 2>&1) &
  set +m
  pids+=($!)
}
finish() {  # finish PID LOG WHAT
  local status=0
  wait "$1" || status=$?
  cat "$2"
  if [ "$status" != 0 ]; then
    echo "make test: $3 failed (exit $status); its log is $2" >&2
    exit "$status"
  fi
  bash scripts/check-warnings.sh "$2"
  step "$3 built"
}

python3 scripts/gen-fold-table.py --check
SWIFT=$SWIFT bash scripts/lint.sh
step "fold table and lint"

mkdir -p .build
# The packages are resolved and the static archives linked once, before three builds read
# Package.resolved and the archives' folder at once.
"$SWIFT" package resolve
"$MAKE" --no-print-directory static-libs
background .build/build-tests.log normal "$SWIFT" build --scratch-path "$TESTS" --product wxPackageTests -Xswiftc -gnone
tests_pid=${pids[-1]}
background .build/build-aqi-watch.log idle "$MAKE" --no-print-directory build-aqi-watch
feed_pid=${pids[-1]}
"$MAKE" --no-print-directory build-wx 2>&1 | tee .build/build-release.log
test "${PIPESTATUS[0]}" = 0
bash scripts/check-warnings.sh .build/build-release.log
step "wx (release) built"
BIN=$("$SWIFT" build -c release --show-bin-path)/wx
python3 scripts/gen-completion-grammar.py --check "$BIN"
rm -rf "$SHARE" && mkdir -p "$SHARE"
cp -p Data/sample-weathers.json Data/sample-weathers.crc32 Data/atlas.bin "$SHARE/"
"$BIN" __build-atlas "$SHARE"

finish "$tests_pid" .build/build-tests.log "the test bundle (debug)"
# Both suites in one run: Swift Testing runs their tests side by side, so WXCore's (CPU-bound,
# in-process) fill the time the end-to-end tests spend waiting on their children.
WX_TEST_SHARE=$SHARE WX_TEST_BINARY=$BIN "$SWIFT" test --scratch-path "$TESTS" --skip-build -Xswiftc -gnone --skip "$FEED"
step "WXCore's suite and the end-to-end suite"

finish "$feed_pid" .build/build-aqi-watch.log "wx-aqi-watch (release)"
WX_TEST_SHARE=$SHARE WX_TEST_BINARY=$BIN "$SWIFT" test --scratch-path "$TESTS" --skip-build -Xswiftc -gnone --filter "$FEED"
step "the end-to-end suites of wx-aqi-watch; all passed"
