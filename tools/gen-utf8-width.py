#!/usr/bin/env python3
"""Writes lib/utf8-width-table.h: the code points git 2.39 gives a width
other than one on the terminal, as sorted ranges for lib/utf8-width.c.

    python3 tools/gen-utf8-width.py >lib/utf8-width-table.h

git 2.39's tables are generated from Unicode 14.0; so must this script's
Python be (unicodedata.unidata_version: Python 3.11 has 14.0.0, 3.12 has
15.0.0, whose new characters git 2.39 counts as one column wide).

Width 0: general categories Mn, Me and Cf except U+00AD SOFT HYPHEN, and
the Hangul jungseong and jongseong U+1160..U+11FF. Width 2: East Asian
Width W and F. A code point in both is 0. Everything else is 1, and so
are unassigned code points, except those that EastAsianWidth.txt itself
lists as W: unicodedata cannot say which those are (it gives unassigned
code points no East Asian Width of their own), so they are listed below,
as Unicode 14.0's file has them and as git 2.39.5 measures them.
Controls (below U+0020, U+007F..U+009F) are not in the tables:
lib/utf8-width.c gives them no width before it looks.
"""
import sys
import unicodedata

UNICODE_VERSION = "14.0.0"

# Unassigned code points with East Asian Width W in Unicode 14.0 (reserved
# for CJK ideographs): git 2.39.5 counts each of them two columns wide.
UNASSIGNED_WIDE = [
    (0xFA6E, 0xFA6F), (0xFADA, 0xFAFF), (0x2A6E0, 0x2A6FF),
    (0x2B739, 0x2B73F), (0x2B81E, 0x2B81F), (0x2CEA2, 0x2CEAF),
    (0x2EBE1, 0x2F7FF), (0x2FA1E, 0x2FFFD), (0x3134B, 0x3FFFD),
]


def width(cp, unassigned_wide):
    c = chr(cp)
    cat = unicodedata.category(c)
    if cat in ("Mn", "Me", "Cf") and cp != 0x00AD:
        return 0
    if 0x1160 <= cp <= 0x11FF:
        return 0
    if cat == "Cn":
        return 2 if cp in unassigned_wide else 1
    if unicodedata.east_asian_width(c) in ("W", "F"):
        return 2
    return 1


def ranges(widths, want):
    out = []
    for cp, w in widths:
        if w != want:
            continue
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def table(name, rs):
    lines = ["static const struct utf8_range %s[] = {" % name]
    row = []
    for lo, hi in rs:
        row.append("{ 0x%04X, 0x%04X }," % (lo, hi))
        if len(row) == 4:
            lines.append("\t" + " ".join(row))
            row = []
    if row:
        lines.append("\t" + " ".join(row))
    lines.append("};")
    return "\n".join(lines)


def main():
    if unicodedata.unidata_version != UNICODE_VERSION:
        sys.exit("gen-utf8-width: Python's Unicode is %s, git 2.39's tables are %s"
                 % (unicodedata.unidata_version, UNICODE_VERSION))
    unassigned_wide = set()
    for lo, hi in UNASSIGNED_WIDE:
        for cp in range(lo, hi + 1):
            if unicodedata.category(chr(cp)) != "Cn":
                sys.exit("gen-utf8-width: U+%04X is assigned" % cp)
            unassigned_wide.add(cp)
    # From U+00A0: controls are decided before the tables are searched.
    widths = [(cp, width(cp, unassigned_wide)) for cp in range(0xA0, 0x110000)
              if not 0xD800 <= cp <= 0xDFFF]
    zero, wide = ranges(widths, 0), ranges(widths, 2)
    print("/* utf8-width-table.h: written by tools/gen-utf8-width.py from Unicode %s,\n"
          " * as git 2.39 has it; do not edit. Sorted, disjoint ranges of code points\n"
          " * (from U+00A0 on) that take no column, and that take two. */" % UNICODE_VERSION)
    print(table("zero_width", zero))
    print()
    print(table("double_width", wide))


if __name__ == "__main__":
    main()
