#!/usr/bin/env python3
"""Generate Sources/WXCore/Search/FoldTable.swift — the search-folding table.

For each non-ASCII Unicode scalar in the Latin, Greek, Cyrillic and fullwidth-ASCII
ranges below, fold(c) is:

    NFKD(c), combining marks removed  ->  casefold()  ->  NFKD again, marks removed

with letters that have no decomposition (ł, ø, ß, æ, ...) mapped by SPECIALS, repeated
until nothing changes. Only scalars with fold(c) != c are emitted. ASCII is not in the
table: Fold.swift lower-cases A-Z itself. Scalars outside the ranges are left to
`Unicode.Scalar.Properties.lowercaseMapping` at run time, except those whose lower-case
mapping lands on a scalar the table folds (e.g. U+212B ANGSTROM SIGN -> å -> a), which
are added here so the run-time result stays accent-free.

Uses the Unicode version of this Python's `unicodedata`; re-run after a Python upgrade:

    python3 scripts/gen-fold-table.py          # writes the Swift file
    python3 scripts/gen-fold-table.py --check  # exit 1 if the file is out of date
"""

import os
import sys
import unicodedata

RANGES = [
    (0x00C0, 0x024F),  # Latin-1 Supplement letters, Latin Extended-A and -B
    (0x0250, 0x02AF),  # IPA Extensions
    (0x0370, 0x03FF),  # Greek and Coptic
    (0x0400, 0x04FF),  # Cyrillic
    (0x1D00, 0x1DBF),  # Phonetic Extensions (+ Supplement): modifier letters -> base letter
    (0x1E00, 0x1EFF),  # Latin Extended Additional (Vietnamese etc.)
    (0x1F00, 0x1FFF),  # Greek Extended (polytonic)
    (0x2C60, 0x2C7F),  # Latin Extended-C
    (0xA720, 0xA7FF),  # Latin Extended-D
    (0xAB30, 0xAB6F),  # Latin Extended-E
    (0xFB00, 0xFB06),  # Latin ligatures (ﬁ -> fi)
    (0xFF01, 0xFF5E),  # Fullwidth ASCII
]

# Letters with no canonical/compatibility decomposition to a base letter.
SPECIALS = {
    "ł": "l", "Ł": "l",
    "ø": "o", "Ø": "o",
    "đ": "d", "Đ": "d",
    "ħ": "h", "Ħ": "h",
    "ß": "ss", "ẞ": "ss",
    "æ": "ae", "Æ": "ae",
    "œ": "oe", "Œ": "oe",
    "þ": "th", "Þ": "th",
    "ð": "d", "Ð": "d",
    "ı": "i",
    "ŋ": "n", "Ŋ": "n",
    "ŧ": "t", "Ŧ": "t",
    "ĸ": "k",
    # Typographic apostrophes / okina -> ASCII apostrophe (N’Djamena, Hawaiʻi).
    "\u2018": "'", "\u2019": "'", "\u02BC": "'", "\u02BB": "'",
    # Unicode hyphens -> ASCII hyphen-minus.
    "\u2010": "-", "\u2011": "-",
}

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                   "Sources", "WXCore", "Search", "FoldTable.swift")
MAX_LINE = 120


def is_mark(ch):
    # Fold.swift drops scalars of general category Mn / Mc / Me; do the same here.
    return unicodedata.category(ch).startswith("M") or unicodedata.combining(ch) != 0


def strip(s):
    return "".join(ch for ch in unicodedata.normalize("NFKD", s) if not is_mark(ch))


def fold(c):
    s = c
    for _ in range(8):
        t = strip(s).casefold()
        t = strip(t)
        t = "".join(SPECIALS.get(ch, ch) for ch in t)
        if t == s:
            return s
        s = t
    raise SystemExit(f"fold of U+{ord(c):04X} did not converge: {s!r}")


def build():
    table = {}
    skipped = []
    for lo, hi in RANGES:
        for cp in range(lo, hi + 1):
            c = chr(cp)
            if unicodedata.category(c) == "Cn" or is_mark(c):
                continue  # unassigned, or dropped at run time before the table is consulted
            f = fold(c)
            if f == c:
                continue
            if f == "" or any(ch.isspace() for ch in f):
                # Spacing accents (´ ˘ ΄ ...) decompose to SPACE + mark: leave them alone
                # rather than inject whitespace into the middle of a word.
                skipped.append(cp)
                continue
            table[cp] = f
    for ch, f in SPECIALS.items():
        table[ord(ch)] = f

    # Scalars outside the ranges whose run-time lower-case mapping hits a table key.
    for cp in range(0x80, 0x110000):
        if cp in table or 0xD800 <= cp <= 0xDFFF:
            continue
        c = chr(cp)
        if unicodedata.category(c) == "Cn" or is_mark(c) or c.isspace():
            continue
        low = c.lower()
        if low != c and any(ord(ch) in table for ch in low):
            table[cp] = "".join(table.get(ord(ch), ch) for ch in low)

    for cp, f in table.items():
        assert f and not any(ch.isspace() for ch in f), (hex(cp), f)
        assert not any(is_mark(ch) for ch in f), (hex(cp), f)
        assert all(ord(ch) not in table for ch in f), (hex(cp), f)  # idempotent
    return dict(sorted(table.items())), skipped


def wrap(items, indent="  "):
    lines, line = [], indent
    for item in items:
        piece = item + ","
        if len(line) + len(piece) + 1 > MAX_LINE and line.strip():
            lines.append(line.rstrip())
            line = indent
        line += piece + " "
    if line.strip():
        lines.append(line.rstrip())
    return "\n".join(lines)


def render(table):
    keys = list(table)
    data, offsets = bytearray(), [0]
    for cp in keys:
        data += table[cp].encode("utf-8")
        offsets.append(len(data))
    return f"""\
// Generated by scripts/gen-fold-table.py — do not edit
// Unicode {unicodedata.unidata_version}
// {len(keys)} entries, {len(data)} replacement bytes.

/// Scalars that fold to something else: sorted by scalar value for binary search.
let foldTableKeys: [UInt32] = [
{wrap(f"0x{cp:04X}" for cp in keys)}
]

/// Folded replacement for `foldTableKeys[i]`, as UTF-8 bytes, concatenated;
/// `foldTableOffsets[i] ..< foldTableOffsets[i+1]`.
let foldTableBytes: [UInt8] = [
{wrap(f"0x{b:02X}" for b in data)}
]

/// Start of each replacement in `foldTableBytes`; count = `foldTableKeys.count + 1`.
let foldTableOffsets: [UInt32] = [
{wrap(str(o) for o in offsets)}
]
"""


def main():
    table, skipped = build()
    text = render(table)
    assert all(len(line) <= MAX_LINE for line in text.splitlines())
    path = os.path.normpath(OUT)
    if "--check" in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit(f"{path} is out of date; run scripts/gen-fold-table.py")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {path}: {len(table)} entries (Unicode {unicodedata.unidata_version}); "
          f"skipped {len(skipped)} spacing accents", file=sys.stderr)


if __name__ == "__main__":
    main()
