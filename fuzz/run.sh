#!/usr/bin/env bash
# Runs each libFuzzer target built by fuzz/build.sh for SECONDS (default 600), one after the
# other, on a working corpus under fuzz-out/corpus/<target> seeded from fuzz/seeds/<target>.
# Prints one summary line per target and exits non-zero if any target found a crash
# (crash-, timeout-, oom- or leak- file under fuzz-out/artifacts/<target>/).
# Usage: bash fuzz/run.sh [SECONDS] [decoder|resolver ...]
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=$PWD/fuzz-out
SECONDS_EACH=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(decoder resolver)
# Let libFuzzer and ASan report crashes, not the Swift runtime's backtracer.
export SWIFT_BACKTRACE=enable=no

failed=0
summaries=()
for t in "${targets[@]}"; do
  bin=$OUT/$t-fuzz
  if [ ! -x "$bin" ]; then
    echo "fuzz/run.sh: $bin is missing; run bash fuzz/build.sh first" >&2
    exit 2
  fi
  corpus=$OUT/corpus/$t
  artifacts=$OUT/artifacts/$t
  log=$OUT/logs/$t.log
  mkdir -p "$corpus" "$artifacts" "$OUT/logs"
  cp -n fuzz/seeds/"$t"/* "$corpus"/ 2>/dev/null || true
  stamp=$OUT/logs/$t.start
  touch "$stamp"
  echo "== $t: ${SECONDS_EACH}s, corpus $corpus, log $log"
  nice -n 10 "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1
  rc=$?
  crashes=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \
    -o -name 'leak-*' \) -newer "$stamp" | sort)
  # The last status line ("#N DONE cov: … ft: … exec/s: …", or the last pulse before a crash).
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  speed=$(sed -nE 's/.* exec\/s: ([0-9]+).*/\1/p' <<<"$last")
  if [ -n "$crashes" ]; then
    line="$t: execs ${execs:-?}, cov ${cov:-?}, ft ${ft:-?}, exec/s ${speed:-?}, crashes: $(echo $crashes)"
    failed=1
  elif [ $rc -ne 0 ]; then
    line="$t: libFuzzer exited with status $rc and no crash file; see $log"
    failed=1
  else
    line="$t: execs ${execs:-?}, cov ${cov:-?}, ft ${ft:-?}, exec/s ${speed:-?}, crashes: 0"
  fi
  echo "$line"
  summaries+=("$line")
done

echo "== summary"
printf '%s\n' "${summaries[@]}"
exit $failed
