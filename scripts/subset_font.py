#!/usr/bin/python3
"""Cuts Noto Sans CJK SC down to the characters the page actually shows.

The full font is 20 MB; the page needs a few hundred Chinese characters. This
collects every non-ASCII character in the given text files (the translation
tables src/**/*.inc and the page's web/*.html), adds printable ASCII and
Latin-1 (numbers, units, names), and writes an OpenType subset of tens of KB
with fontTools (Debian: apt-get install fonttools).

Usage: subset_font.py --font NotoSansCJK-Regular.ttc --font-number 2
                      --output ui-font.otf FILE...
Run it with /usr/bin/python3: a python3 earlier on PATH may lack fontTools.
"""
import argparse
import sys

from fontTools import subset

ALWAYS = "".join(chr(c) for c in range(0x20, 0x7F)) + "".join(chr(c) for c in range(0xA0, 0x100))


def used_characters(paths):
    chars = set(ALWAYS)
    for path in paths:
        with open(path, encoding="utf-8") as f:
            chars.update(c for c in f.read() if ord(c) > 0x7E and c.isprintable())
    return "".join(sorted(chars))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--font", required=True)
    ap.add_argument("--font-number", type=int, default=0)
    ap.add_argument("--output", required=True)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()

    text = used_characters(args.files)
    options = subset.Options()
    options.font_number = args.font_number
    options.layout_features = []   # ImGui draws glyphs one by one: no shaping tables
    options.hinting = False        # rasterized at the exact pixel size by stb_truetype
    options.desubroutinize = True  # larger raw, smaller after gzip
    font = subset.load_font(args.font, options)
    missing = sorted(c for c in set(text) if ord(c) not in font.getBestCmap())
    if missing:
        listing = " ".join(f"U+{ord(c):04X}" for c in missing)
        print(f"subset_font.py: warning: the font has no glyph for {listing}: the page shows '?'", file=sys.stderr)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    subset.save_font(font, args.output, options)
    print(f"subset_font.py: {len(text)} characters -> {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
