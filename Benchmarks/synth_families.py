#!/usr/bin/env python3
"""Synthetic font families for the scale benchmark (Benchmarks/bench-scale.sh).

  synth_families.py select [--allow REGEX] < FAMILIES.json > SOURCES.tsv
  synth_families.py generate --count N --per-dir P [--jobs J] --out DIR SOURCES.tsv

`select` reads `fonti-batch families --json` and keeps the families whose files lie in
folders of openly licensed fonts (--allow, a regular expression on the path), are plain
static SFNT fonts (no collection, no variation or colour tables) and number 1 to 4 after
that filter: one line per family, the name and its files, tab-separated.

`generate` makes N families from them, in turn (family i is a copy of source i mod S):
each file of the source copied with "Synth NNNN " put before every family name in its
`name` table (IDs 1, 4, 16, 21; 3, the unique ID, too) and "SynthNNNN-" before its
PostScript name (ID 6). The style names (IDs 2, 17, 22) stay as they are. Nothing else in
the font changes: the other tables are copied byte for byte (read once per source file,
only `name` is compiled), so a copy costs a few milliseconds. The families go to
DIR/fonts/d000, d001, ... (P to a folder), their names in order to DIR/families.txt.

This is a benchmark tool: the product and the tests never run fontTools.
"""

import argparse
import json
import multiprocessing
import os
import re
import sys

from fontTools.ttLib import TTFont
from fontTools.ttLib.sfnt import SFNTWriter

DEFAULT_ALLOW = (
    r"/(noto|dejavu|liberation2|lato|tex-?gyre|cantarell|ebgaramond|gentium[a-z]*"
    r"|linux-libertine|inter)/[^/]+\.(ttf|otf)$"
)
FAMILY_IDS = (1, 3, 4, 16, 21)
POSTSCRIPT_ID = 6
REFUSED_TABLES = ("fvar", "COLR", "CBDT", "sbix", "SVG ")


def plain_static_font(path):
    """Whether path is a single static SFNT font without colour tables."""
    try:
        with open(path, "rb") as f:
            if f.read(4) == b"ttcf":
                return False
        font = TTFont(path, lazy=True)
        try:
            return (
                "name" in font
                and "cmap" in font
                and not any(tag in font for tag in REFUSED_TABLES)
            )
        finally:
            font.close()
    except Exception:
        return False


def select(args):
    allow = re.compile(args.allow)
    families = json.load(sys.stdin)
    count = 0
    for family in families:
        name = family.get("family", "")
        if not family.get("supported", False) or not name or "\t" in name or "\n" in name:
            continue
        files = sorted(f for f in family.get("files", []) if allow.search(f))
        if not 1 <= len(files) <= 4 or any("\t" in f or "\n" in f for f in files):
            continue
        if not all(plain_static_font(f) for f in files):
            continue
        print("\t".join([name] + files))
        count += 1
    if count == 0:
        sys.exit("synth_families: no installed family fits (openly licensed, static, 1-4 faces)")


def copy_file(task):
    """Writes every copy of one source file: task is (source, [(number, path), ...])."""
    source, copies = task
    font = TTFont(source, lazy=True, recalcBBoxes=False, recalcTimestamp=False)
    tags = list(font.reader.keys())
    raw = {tag: font.reader[tag] for tag in tags if tag != "name"}
    name = font["name"]
    originals = []
    kept = []
    for record in name.names:
        if record.nameID in FAMILY_IDS or record.nameID == POSTSCRIPT_ID:
            try:
                originals.append((record, record.toUnicode()))
            except UnicodeDecodeError:
                continue  # a family name we cannot rename would collide: leave it out
        kept.append(record)
    name.names = kept
    for number, path in copies:
        for record, text in originals:
            if record.nameID == POSTSCRIPT_ID:
                record.string = ("Synth%s-%s" % (number, text))[:63]
            else:
                record.string = "Synth %s %s" % (number, text)
        data = name.compile(font)
        with open(path, "wb") as out:
            writer = SFNTWriter(out, len(tags), font.sfntVersion)
            for tag in tags:
                writer[tag] = data if tag == "name" else raw[tag]
            writer.close()
    font.close()
    return len(copies)


def generate(args):
    sources = []
    with open(args.sources, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) >= 2:
                sources.append((fields[0], fields[1:]))
    if not sources:
        sys.exit("synth_families: %s lists no source family" % args.sources)
    width = max(4, len(str(args.count)))
    tasks = {}  # source file → its copies
    names = []
    for i in range(args.count):
        family, files = sources[i % len(sources)]
        number = "%0*d" % (width, i + 1)
        folder = os.path.join(args.out, "fonts", "d%03d" % (i // args.per_dir))
        os.makedirs(folder, exist_ok=True)
        for file in files:
            path = os.path.join(folder, "s%s-%s" % (number, os.path.basename(file)))
            tasks.setdefault(file, []).append((number, path))
        names.append("Synth %s %s" % (number, family))
    try:
        with multiprocessing.Pool(args.jobs) as pool:
            written = sum(pool.imap_unordered(copy_file, sorted(tasks.items()), chunksize=4))
        with open(os.path.join(args.out, "families.txt"), "w", encoding="utf-8") as f:
            f.write("".join(n + "\n" for n in names))
    except Exception as error:  # a full disk, a font that changed under us: say so plainly
        sys.exit("synth_families: %s" % error)
    print("%d families, %d files" % (len(names), written))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("select")
    s.add_argument("--allow", default=DEFAULT_ALLOW)
    g = commands.add_parser("generate")
    g.add_argument("--count", type=int, required=True)
    g.add_argument("--per-dir", type=int, default=50)
    g.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    g.add_argument("--out", required=True)
    g.add_argument("sources")
    args = parser.parse_args()
    if args.command == "select":
        select(args)
    else:
        if args.count < 1 or args.per_dir < 1 or args.jobs < 1:
            sys.exit("synth_families: --count, --per-dir and --jobs must be positive")
        generate(args)


if __name__ == "__main__":
    main()
