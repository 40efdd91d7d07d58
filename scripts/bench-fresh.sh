#!/usr/bin/env bash
# Benchmarks of keeping wx current (run by `make bench` after scripts/bench.sh):
#
#     bash scripts/bench-fresh.sh WX_BINARY
#
# 1. The first command in a new state folder against a later one, with the data laid out as
#    `make install` lays it out (the shared atlas store built once beside atlas.bin): `wx show
#    Berlin` (hyperfine, $WX_BENCH_RUNS runs; the first run's folder removed before each), the
#    ratio (goal: within x1.5), and the state folder's size after the first (goal: under 2 MB);
#    then `--waybar` and `--format` with every specifier against `--format '%t'` (goal: x1.1).
# 2. An Open-Meteo sync of each of $WX_BENCH_OM_SIZES places (default "500 5000 50000") from
#    the stand-in (Tests/Support/openmeteo.py): its time (median of 3; one run past 5,000), its peak RSS (goal:
#    64 MiB or less at any size), and, as the peer, curl fetching the same requests (the
#    stand-in lists them) piped to `python3 -m json.tool`, the same bytes read and parsed once;
#    and for the first size, wx's instructions per byte received (callgrind's total for the
#    whole sync over the bytes the stand-in sent; `–` while valgrind 3.19 cannot run `wx
#    sync`, PERFORMANCE.md) and, with WX_BENCH_DECODER, decoding's alone (the same answers
#    decoded from files by wx-decode-bench); then `wx show` with its sentence against the same
#    show's line without it, and `wx alerts` over 100 favourites.
#
# Appends a Markdown section to bench-out/results.md (and prints it). Everything runs in a
# temporary folder removed on exit; the stand-ins are stopped.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: bash scripts/bench-fresh.sh WX_BINARY" >&2; exit 64; }
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -x "$WX" ] || { echo "bench-fresh: $1 is not an executable file" >&2; exit 66; }
RUNS=${WX_BENCH_RUNS:-50}
SIZES=${WX_BENCH_OM_SIZES:-500 5000 50000}
CACHE=${WX_BENCH_CACHE:-$HOME/.cache/wx-bench}
OUT=$ROOT/bench-out
export LANG=C.UTF-8 LC_ALL=C.UTF-8 NO_COLOR=1 WX_NOW=1795436400
unset WX_API_URL WX_DATA_DIR WX_ATLAS XDG_DATA_HOME || true
for n in $SIZES; do
  [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] && [ "$n" -le 100000 ] ||
    { echo "bench-fresh: bad size '$n' in WX_BENCH_OM_SIZES (1..100000)" >&2; exit 64; }
done
for tool in hyperfine curl valgrind; do
  command -v $tool >/dev/null || { apt-get update -qq && apt-get install -y -qq hyperfine curl valgrind time >/dev/null; }
done
TMP=$(mktemp -d)
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$TMP"' EXIT
mkdir -p "$OUT" "$CACHE"
SECTION=$TMP/section.md

# ---- 1. the first command in a new state folder -------------------------------------------
echo "== first command in a new state folder" >&2
SHARE=$TMP/share
mkdir -p "$SHARE"
cp "$ROOT/Data/sample-weathers.json" "$ROOT/Data/sample-weathers.crc32" "$ROOT/Data/atlas.bin" "$SHARE/"
"$WX" __build-atlas "$SHARE"
export WX_DATA_DIR=$SHARE
FIRST=$TMP/home-first LATER=$TMP/home-later
WX_HOME=$LATER "$WX" show Berlin >/dev/null 2>&1
WX_HOME=$FIRST "$WX" show Berlin >/dev/null 2>&1
home_bytes=$(du -sb "$FIRST" | cut -f1)
hyperfine -N --warmup 3 --runs "$RUNS" --style none --export-json "$OUT/fresh-first.json" \
  --prepare "rm -rf $FIRST" -n "first command" "env WX_HOME=$FIRST $WX show Berlin" >/dev/null 2>&1
hyperfine -N --warmup 3 --runs "$RUNS" --style none --export-json "$OUT/fresh-later.json" \
  -n "later command" "env WX_HOME=$LATER $WX show Berlin" >/dev/null 2>&1
# Status bars (issue 31): --waybar and --format with every specifier against --format '%t'.
ALL='%l %c %C %t %f %h %w %p %u %S %s %a %o %P %x %m %M %D %z %d %T %Z'
hyperfine -N --warmup 3 --runs "$RUNS" --style none --export-json "$OUT/fresh-bars.json" \
  -n "format %t" "env WX_HOME=$LATER $WX show Berlin --format %t" \
  -n "waybar" "env WX_HOME=$LATER $WX show Berlin --waybar" \
  -n "format, every specifier" "env WX_HOME=$LATER $WX show Berlin --format '$ALL'" >/dev/null 2>&1
unset WX_DATA_DIR

# ---- 2. Open-Meteo syncs of many places ----------------------------------------------------
start() {  # start SCRIPT ARGS... -> sets PORT
  python3 "$@" --port 0 --exit-with-parent >"$TMP/port" 2>"$TMP/err" &
  PIDS+=($!)
  for ((i = 0; i < 100; i++)); do grep -q '^PORT ' "$TMP/port" && break; sleep 0.1; done
  PORT=$(sed -n 's/^PORT \([0-9]*\)$/\1/p' "$TMP/port")
  [ -n "$PORT" ] || { echo "bench-fresh: a stand-in did not start" >&2; cat "$TMP/err" >&2; exit 69; }
}
ROWS=$TMP/rows
: >"$ROWS"
first_size=1
for n in $SIZES; do
  echo "== Open-Meteo sync of $n places" >&2
  JSON=$CACHE/catalogue-$n.json
  [ -s "$JSON" ] || python3 "$ROOT/scripts/make-catalogue.py" "$n" "$JSON"
  H=$TMP/home-om-$n
  start "$ROOT/Tests/Support/fakeapi.py" --data "$JSON"
  WX_HOME=$H "$WX" sync --url "http://127.0.0.1:$PORT/api/v1/weathers" --per-page 1000 --quiet
  start "$ROOT/Tests/Support/openmeteo.py"
  OMURL=http://127.0.0.1:$PORT
  SYNC=("$WX" sync --provider open-meteo --url "$OMURL/v1/forecast" --max-cities "$n" --quiet)
  curl -sf "$OMURL/__stats?reset=1" >/dev/null
  WX_HOME=$H /usr/bin/time -f %M -o "$TMP/rss" "${SYNC[@]}"
  rss=$(tail -n1 "$TMP/rss")
  bytes=$(curl -sf "$OMURL/__stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["bytes"])')
  curl -sf "$OMURL/__paths" | python3 -c 'import json,sys; [print(p) for p in json.load(sys.stdin)]' >"$TMP/paths"
  # The peer: the same requests, one after the other, each answer parsed by python3's json.
  cat >"$TMP/peer.sh" <<EOF
while read -r p; do curl -sf "$OMURL\$p" | python3 -m json.tool >/dev/null; done <"$TMP/paths"
EOF
  # Three runs each up to 5,000 places; one past that (the peer parses 230 MB at 50,000:
  # about six minutes a run).
  runs=3
  [ "$n" -gt 5000 ] && runs=1
  hyperfine --runs "$runs" --style none --export-json "$OUT/fresh-om-$n.json" \
    -n "wx" "env WX_HOME=$H $(printf '%q ' "${SYNC[@]}")" -n "curl + json.tool" "bash $TMP/peer.sh" >/dev/null 2>&1
  ipb=
  if [ "$first_size" = 1 ]; then
    WX_HOME=$H valgrind --tool=callgrind --callgrind-out-file="$TMP/cg" "${SYNC[@]}" 2>"$TMP/vg" >/dev/null || true
    ins=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$TMP/cg" | head -1)
    [ -n "$ins" ] && ipb=$(python3 -c "print(f'{$ins / $bytes:.0f}')")
    # Decoding alone: the same answers fetched again into files and decoded by
    # wx-decode-bench (WX_BENCH_DECODER, built by `make bench`) as the sync decodes them,
    # callgrind collecting inside OpenMeteoStream.feed and .finish only (the streaming parser
    # and the records made of each location), over the bytes of those answers.
    if [ -n "${WX_BENCH_DECODER:-}" ] && [ -x "$WX_BENCH_DECODER" ]; then
      mkdir -p "$TMP/answers"
      k=0
      while read -r p; do
        k=$((k + 1))
        curl -sf "$OMURL$p" -o "$TMP/answers/$(printf %05d $k).json"
      done <"$TMP/paths"
      abytes=$(cat "$TMP/answers"/*.json | wc -c)
      valgrind --tool=callgrind --callgrind-out-file="$TMP/cg-decode" \
        --toggle-collect='$s6WXCore15OpenMeteoStreamV4feedyySWKF' --toggle-collect='$s6WXCore15OpenMeteoStreamV6finishyyKF' \
        "$WX_BENCH_DECODER" 50 "$TMP/answers"/*.json 2>"$TMP/vg" >/dev/null || true
      dins=$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$TMP/cg-decode" | head -1)
      [ -n "$dins" ] && ipb="$ipb (decoding $(python3 -c "print(f'{$dins / $abytes:.0f}')"))"
    fi
    # What is coming (issue 32), on these places' stored hours: `wx show` with its sentence
    # against the same show's line without it (--format '%t' against '%t %e': the sentence's
    # own cost), and `wx alerts` over 100 favourites (the first 100 places).
    WX_HOME=$H "$WX" list --per-page 100 --json | python3 -c 'import json,sys; [print(i["id"]) for i in json.load(sys.stdin)["items"]]' |
      while read -r id; do WX_HOME=$H "$WX" fav add "$id" >/dev/null 2>&1; done
    one=$(WX_HOME=$H "$WX" list --per-page 1 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["id"])')
    hyperfine -N -i --warmup 3 --runs "$RUNS" --style none --export-json "$OUT/fresh-outlook.json" \
      -n "show" "env WX_HOME=$H $WX show $one" \
      -n "format %t" "env WX_HOME=$H $WX show $one --format %t" \
      -n "format %t %e" "env WX_HOME=$H $WX show $one --format '%t %e'" \
      -n "alerts, 100 favourites" "env WX_HOME=$H $WX alerts" \
      -n "fav, 100 favourites" "env WX_HOME=$H $WX fav" >/dev/null 2>&1
    first_size=0
  fi
  printf '%s\t%s\t%s\t%s\n' "$n" "$rss" "$bytes" "$ipb" >>"$ROWS"
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  PIDS=()
done

python3 - "$OUT" "$ROWS" "$home_bytes" >"$SECTION" <<'PY'
import json, os, sys
out, rows, home_bytes = sys.argv[1], sys.argv[2], int(sys.argv[3])
def med(name, command=None):
    rs = json.load(open(os.path.join(out, name)))["results"]
    r = rs[0] if command is None else next(r for r in rs if r["command"] == command)
    return r["median"] * 1000
first, later = med("fresh-first.json"), med("fresh-later.json")
print("\n## Keeping current (scripts/bench-fresh.sh)\n")
print("| measure | value | goal |\n|---|---|---|")
print(f"| first `wx show Berlin` in a new state folder | {first:.2f} ms | |")
print(f"| a later one | {later:.2f} ms | |")
print(f"| first / later | ×{first / later:.2f} | ≤ ×1.5 |")
print(f"| state folder after the first | {home_bytes / 1e6:.2f} MB | < 2 MB |")
t = med("fresh-bars.json", "format %t")
for name in ("waybar", "format, every specifier"):
    v = med("fresh-bars.json", name)
    print(f"| `wx show Berlin --{'waybar' if name == 'waybar' else 'format ALL'}` against `--format %t` | {v:.2f} / {t:.2f} ms, ×{v / t:.2f} | ≤ ×1.1 |")
if os.path.exists(os.path.join(out, "fresh-outlook.json")):
    o = lambda name: med("fresh-outlook.json", name)
    print(f"| `wx show` (with its sentence) | {o('show'):.2f} ms | |")
    print(f"| `--format '%t %e'` against `--format %t` (the sentence's cost) | {o('format %t %e'):.2f} / {o('format %t'):.2f} ms, ×{o('format %t %e') / o('format %t'):.2f} | ≤ ×1.1 |")
    print(f"| `wx alerts` over 100 favourites (against `wx fav`) | {o('alerts, 100 favourites'):.2f} / {o('fav, 100 favourites'):.2f} ms, ×{o('alerts, 100 favourites') / o('fav, 100 favourites'):.2f} | |")
print("\n| Open-Meteo sync | wx | curl + json.tool | ratio | peak RSS (goal ≤ 64 MiB) | bytes received | instructions / byte |")
print("|---|---|---|---|---|---|---|")
for line in open(rows):
    n, rss, nbytes, ipb = line.rstrip("\n").split("\t")
    wx, peer = med(f"fresh-om-{n}.json", "wx"), med(f"fresh-om-{n}.json", "curl + json.tool")
    print(f"| {int(n):,} places | {wx / 1000:.2f} s | {peer / 1000:.2f} s | ×{wx / peer:.2f} | "
          f"{int(rss) / 1024:.1f} MiB | {int(nbytes) / 1e6:.1f} MB | {ipb or '–'} |")
PY
cat "$SECTION"
cat "$SECTION" >>"$OUT/results.md"
