#!/usr/bin/env python3
"""Keystroke-to-last-byte latency of `wx browse` (run by `make bench`).

    python3 scripts/bench-browse.py WX_BINARY [--cities N] [--rounds R]

Builds (or reuses) the benchmark catalogue of N real city names (default 170391, the
size scripts/bench.sh uses; scripts/make-catalogue.py, cached in $WX_BENCH_CACHE, default
~/.cache/wx-bench), serves it with the stand-in API (Tests/Support/fakeapi.py), syncs it
into a temporary state folder, then opens `wx browse` in a 100x40 pseudo-terminal and plays
a scripted session R times (default 3): typing and erasing queries, paging down and up,
End/Home, moving, Tab through All/Favourites/Hottest, opening cities and going back,
toggling the unit and a favourite.

For each key it measures the time from writing the key to the last byte of the redraw it
caused (a redraw is over once the terminal has been quiet for 25 ms; the quiet time is not
counted). A lone Esc is not timed: wx waits 30 ms on purpose to tell it from the start of
an arrow key's sequence. Prints the median, p90, p99 and maximum, overall and per kind of
key, and writes them to bench-out/browse.md. Python 3.11 standard library only.
"""

import argparse
import os
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
QUIET = 0.025

DOWN, UP, PGDN, PGUP, END, HOME = "\x1b[B", "\x1b[A", "\x1b[6~", "\x1b[5~", "\x1b[F", "\x1b[H"


def session():
    """(kind, key) pairs of one round; Esc is sent but not timed."""
    keys = []
    for word in ("par", "san", "new york", "ber", "s", "zz"):
        keys += [("type", c) for c in word]
        keys += [("erase", "\x7f") for _ in word]
    keys += [("page", PGDN)] * 25 + [("page", END)] + [("page", PGUP)] * 10 + [("page", HOME)]
    keys += [("move", DOWN)] * 30 + [("move", UP)] * 10
    keys += [("view", "\t")] * 3
    for _ in range(5):
        keys += [("detail", "\r"), ("detail", DOWN), ("esc", "\x1b"), ("move", DOWN)]
    keys += [("search+page", c) for c in "lo"] + [("search+page", PGDN)] * 5 + [("esc", "\x1b")]
    keys += [("unit", "u"), ("unit", "u"), ("favourite", "f"), ("favourite", "f")]
    return keys


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"bench-browse: {' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def catalogue(n):
    cache = os.environ.get("WX_BENCH_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "wx-bench")
    os.makedirs(cache, exist_ok=True)
    paths = [os.path.join(cache, f) for f in (f"catalogue-{n}.json", f"names-{n}.txt", f"cities-{n}.db")]
    gen = os.path.join(ROOT, "scripts", "make-catalogue.py")
    if not all(os.path.exists(p) and os.path.getsize(p) and os.path.getmtime(p) >= os.path.getmtime(gen) for p in paths):
        print(f"bench-browse: building a catalogue of {n} cities", file=sys.stderr)
        run([sys.executable, gen, str(n), paths[0], "--names", paths[1], "--sqlite", paths[2]])
    return paths[0]


def sync(wx, data, env):
    api = subprocess.Popen(
        [sys.executable, os.path.join(ROOT, "Tests", "Support", "fakeapi.py"), "--data", data, "--port", "0",
         "--exit-with-parent"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = api.stdout.readline()
        if not line.startswith("PORT "):
            sys.exit("bench-browse: the stand-in API did not start")
        url = f"http://127.0.0.1:{int(line.split()[1])}/api/v1/weathers"
        run([wx, "sync", "--url", url, "--per-page", "1000", "--quiet"], env=env)
    finally:
        api.terminate()
        api.wait()


def measure(wx, env, rounds):
    sys.path.insert(0, os.path.join(ROOT, "Tests", "Support"))
    from browse_driver import spawn  # the tests' pty set-up

    pid, master, _ = spawn([wx, "browse"], env, 100, 40)

    def drain(first_wait):
        """Reads until QUIET seconds pass with nothing; the time of the last byte, or None."""
        last = None
        wait = first_wait
        while True:
            r, _, _ = select.select([master], [], [], wait)
            if not r:
                return last
            if not os.read(master, 1 << 16):
                return last
            last = time.perf_counter()
            wait = QUIET

    drain(5.0)  # the first frame
    samples = []
    silent = 0
    for _ in range(rounds):
        for kind, key in session():
            start = time.perf_counter()
            os.write(master, key.encode())
            last = drain(0.5)
            if kind == "esc":
                continue
            if last is None:
                silent += 1
                continue
            samples.append((kind, (last - start) * 1000.0))
    os.write(master, b"q")
    _, status = os.waitpid(pid, 0)
    if status != 0:
        sys.exit(f"bench-browse: wx browse ended with status {status}")
    return samples, silent


def stats(values):
    v = sorted(values)
    pick = lambda q: v[min(len(v) - 1, int(round(q * (len(v) - 1))))]
    return f"{statistics.median(v):.2f} | {pick(0.9):.2f} | {pick(0.99):.2f} | {v[-1]:.2f} | {len(v)}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wx")
    ap.add_argument("--cities", type=int, default=170391)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    wx = os.path.abspath(a.wx)
    data = catalogue(a.cities)
    with tempfile.TemporaryDirectory(prefix="wx-bench-browse.") as home:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "WX_HOME": home,
               "LANG": "C.UTF-8", "TERM": "xterm-256color", "TZ": "UTC"}
        print(f"bench-browse: syncing {a.cities} cities", file=sys.stderr)
        sync(wx, data, env)
        samples, silent = measure(wx, env, a.rounds)
    lines = [
        f"## wx browse at {a.cities:,} cities\n",
        "Keystroke to last byte of the redraw, ms (100x40 pty, colours on, "
        f"{a.rounds} rounds; {silent} keys drew nothing):\n",
        "| keys | median | p90 | p99 | max | n |", "|---|---:|---:|---:|---:|---:|",
        f"| **all** | {stats([v for _, v in samples])} |",
    ]
    for kind in dict.fromkeys(k for k, _ in samples):
        lines.append(f"| {kind} | {stats([v for k, v in samples if k == kind])} |")
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(os.path.join(ROOT, "bench-out"), exist_ok=True)
    with open(os.path.join(ROOT, "bench-out", "browse.md"), "w") as fh:
        fh.write(text)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    main()
