#!/usr/bin/env bash
# Rewrites scripts/wx.link-order, the functions wx's read commands run and the data they
# touch, which the release link lays out together at the start of .text, .data.rel.ro, .data
# and .bss (lld's --symbol-ordering-file; Makefile, ORDER_FLAGS). Scattered over 12 MB of code,
# the functions cost `wx search par` 91 page faults of 4 us each; together they fit in a few
# 64 KiB windows of the kernel's fault-around. The data is written at every start (the
# runtime's caches, the once-tokens of globals): scattered over 140 pages of zeroed data and
# 50 of initialised data, it cost a fault a page touched, often two (read, then written).
#
# Usage: scripts/text-order.sh [BINARY]   (a release wx with symbols; default .build/release/wx,
# whose link file list names the objects it was linked from)
# It runs each command below under valgrind's callgrind and lackey (apt-get install valgrind), with the
# atlas on, in throw-away state folders: on the bundled sample, then on a catalogue of 200,000
# cities (scripts/make-catalogue.py) synced from the stand-in API on 127.0.0.1, whose atlas
# links and larger pages take paths the sample does not. It lists every function of the
# binary that ran, in the order of the first run that ran it: `wx search par` at 200,000
# cities first, then `show`, `list`, `top`, `fav`, so the commands people run most find their
# code in the fewest pages; then the data symbols whose memory any run read or wrote (the one
# at or before each address lackey saw), section by section in address order, written before
# only read. A name the next build no longer has
# is skipped by the linker: a stale list costs page faults, never correctness. Run it after a
# change to the read path, then `make bench`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/.build/release/wx}
out=$root/scripts/wx.link-order
command -v valgrind >/dev/null || { echo "link-order: valgrind is needed (apt-get install valgrind)" >&2; exit 69; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind reads no binary with DWARF this large; the symbols are all it needs.
strip -g -o "$work/wx" "$bin"
share=$work/share
mkdir -p "$share" "$work/home"
cp -p "$root/Data/sample-weathers.json" "$root/Data/sample-weathers.crc32" "$root/Data/atlas.bin" "$share/"
"$work/wx" __build-atlas "$share"
export WX_DATA_DIR=$share NO_COLOR=1
python3 "$root/scripts/make-catalogue.py" 200000 "$work/big.json" >/dev/null
python3 "$root/Tests/Support/fakeapi.py" --data "$work/big.json" --port 0 --exit-with-parent >"$work/port" 2>/dev/null &
for _ in $(seq 600); do grep -q '^PORT' "$work/port" && break; sleep 0.1; done
port=$(sed -n 's/^PORT //p' "$work/port")
mkdir -p "$work/big"
WX_HOME=$work/big "$work/wx" sync --url "http://127.0.0.1:$port/api/v1/weathers" >/dev/null
kill %1 2>/dev/null || true
commands=(
  "search par" "show Paris" "list" "top" "fav" "hottest" "forecast Paris" "list --page 2"
  "show Paris, FR" "show 'New York'" "show Londn" "show Springfield, IL" "forecast Paris --hours"
  "search san" "search 'Springfield, IL'" "search st paul" "search --json par" "list --json"
  "fav list --json"
)
# The binary's writable data, .data.rel.ro, .data and .bss, as "start end" in address order:
# where the runs' loads and stores are kept, and the sections the symbols are ranked by.
readelf -W -S "$work/wx" | python3 -c '
import re, sys
spans = [(int(m.group(1), 16), int(m.group(1), 16) + int(m.group(2), 16)) for m in re.finditer(
    r"\]\s+(?:\.data\.rel\.ro|\.data|\.bss)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", sys.stdin.read())]
print("".join(f"{a} {b}\n" for a, b in sorted(spans)), end="")
' >"$work/sections"
n=0
for home in "$work/big" "$work/home"; do
  for c in "${commands[@]}"; do
    n=$((n + 1))
    eval "set -- $c"
    WX_HOME=$home valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$work/cg.$n" "$work/wx" "$@" \
      >/dev/null 2>&1 || true
    # Every load and store, kept where it falls in the binary's writable data (a log of 60 MB).
    WX_HOME=$home valgrind --tool=lackey --trace-mem=yes --log-file="$work/mem" "$work/wx" "$@" >/dev/null 2>&1 || true
    python3 - "$work/sections" "$work/mem" "$work/data.$n" <<'PY'
import sys
sections, trace, out = sys.argv[1:]
spans = [tuple(map(int, line.split())) for line in open(sections)]
low, high = spans[0][0], spans[-1][1]
seen = {}
with open(trace, "rb") as f:
    for line in f:
        if line[:1] == b" " and line[1:2] in (b"L", b"S", b"M"):
            a = int(line[3:line.index(b",")], 16)
            if low <= a < high:
                seen[a] = seen.get(a, False) or line[1:2] != b"L"
with open(out, "w") as o:
    o.write("".join(f"{a:x} {int(w)}\n" for a, w in seen.items()))
PY
  done
done
rm -f "$work/mem"
# The archives the Swift runtime and standard library come in, and libstdc++ and libgdbm.
static=$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift_static/linux
ours=$(dirname "$bin")/wx.product/Objects.LinkFileList
python3 - "$work" "$n" "$out" "$ours" "$static"/*.a "$root"/.build/static-libs/*.a <<'EOF'
import bisect, re, subprocess, sys
work, n, out, ours, archives = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
uses = {}
for k in range(1, n + 1):
    obs, fns, ob, ran = {}, {}, None, set()
    for line in open(f"{work}/cg.{k}", errors="replace"):
        m = re.match(r"(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        kind, ident, name = m.groups()
        table = obs if kind.endswith("ob") else fns
        if name:
            table[ident] = name
        if kind == "ob":
            ob = obs[ident]
        elif kind == "fn" and ob and ob.endswith("/wx"):
            ran.add(fns[ident])
    for f in ran:
        uses.setdefault(f, k)
names = sorted((f for f in uses if not f.startswith("0x")), key=lambda f: (uses[f], f))
# A function of the standard library that is not in a section of its own sits in one section
# with thousands of others (1.6 MB of Swift.o): lld places that section where its first
# listed function is. Those sections go first, so the rest of the list stays together after
# them. (A name also defined in wx's own objects, a specialization both emit, is left in
# place: it would pull the big section in after it.)
def functions(path, big_only):
    text = subprocess.run(["readelf", "-W", "-S", "-s", path], capture_output=True, text=True, errors="replace").stdout
    found = set()
    for part in re.split(r"\nFile: ", text):
        sizes = {m.group(1): int(m.group(2), 16) for m in re.finditer(
            r"^\s*\[\s*(\d+)\]\s+\S+\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", part, re.M)}
        for m in re.finditer(r"^\s*\d+:\s+[0-9a-f]+\s+\d+\s+FUNC\s+\S+\s+\S+\s+(\d+)\s+(\S+)", part, re.M):
            if not big_only or sizes.get(m.group(1), 0) > 65536:
                found.add(m.group(2))
    return found
big = set()
for a in archives:
    big |= functions(a, True)
own = set()
for o in open(ours).read().split():
    own |= functions(o, False)
first = [f for f in names if f in big and f not in own]
names = first + [f for f in names if f not in set(first)]
# The data: each address a run touched is taken as the symbol at or before it in its section
# (lld moves the input section holding the symbol: for most objects their whole .bss).
wx = f"{work}/wx"
sections = [tuple(map(int, line.split())) for line in open(f"{work}/sections")]
symbols = []
for line in subprocess.run(["nm", "-n", "--defined-only", wx], capture_output=True, text=True).stdout.splitlines():
    p = line.split()
    if len(p) == 3 and p[1] in "bBdD" and not p[2].startswith("__"):
        symbols.append((int(p[0], 16), p[2]))
starts = [a for a, _ in symbols]
data = {}
for k in range(1, n + 1):
    for i, line in enumerate(open(f"{work}/data.{k}")):
        a, w = int(line.split()[0], 16), line.split()[1] == "1"
        j = bisect.bisect_right(starts, a) - 1
        s = next((s for s, (lo, hi) in enumerate(sections) if lo <= a < hi), None)
        if j < 0 or s is None or symbols[j][0] < sections[s][0]:
            continue
        rank = (s, not w, k, i)
        data[symbols[j][1]] = min(rank, data.get(symbols[j][1], rank))
touched = sorted(data, key=lambda d: data[d])
with open(out, "w") as o:
    o.write("".join(f"{f}\n" for f in names + touched))
print(f"link-order: {len(names)} functions from {n} runs ({len(first)} in shared sections, first), "
      f"{len(touched)} data symbols -> {out}")
EOF
