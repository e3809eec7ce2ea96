#!/usr/bin/env python3
"""Makes damaged copies of font files, deterministically from a seed (used by Fuzz/sweep.sh).

    damage.py SEED COUNT OUT_FOLDER FONT...

Writes COUNT files to OUT_FOLDER, each one source font (taken in turn) with one kind of damage
chosen by the seed, named NNNN-KIND-TABLE-SOURCE.EXT, and `sources.tsv` (damaged file, its
source) beside them. The kinds are what a truncated download, a bad converter or a hostile
file do to a font:

    random      random bytes over part of one table
    noise       one table filled with random bytes
    truncated   the file cut off inside one table
    past-end    one table's directory entry pointing past the end of the file
    huge-count  a table's first counts set to 0xFFFF (and its offsets to 0xFFFFFFFF)
    short       one table's length in the directory cut to a few bytes
    overlap     one table's offset moved onto another table

Only the standard library: the table directory is read by hand (no fontTools needed).
"""
import os
import random
import struct
import sys

KINDS = ["random", "noise", "truncated", "past-end", "huge-count", "short", "overlap"]


def tables(data):
    """The table records of the font's first face: (tag, record offset, offset, length)."""
    base = 0
    if data[:4] == b"ttcf" and len(data) >= 16:
        base = struct.unpack(">I", data[12:16])[0]
    if base + 12 > len(data):
        return []
    count = struct.unpack(">H", data[base + 4 : base + 6])[0]
    records = []
    for i in range(count):
        record = base + 12 + 16 * i
        if record + 16 > len(data):
            break
        tag, _, offset, length = struct.unpack(">4sIII", data[record : record + 16])
        if offset < len(data) and length > 0:
            records.append((tag.decode("latin-1"), record, offset, min(length, len(data) - offset)))
    return records


def damage(data, kind, table, records, rng):
    data = bytearray(data)
    tag, record, offset, length = table
    if kind == "random":
        for _ in range(rng.randint(1, 32)):
            data[offset + rng.randrange(length)] = rng.randrange(256)
    elif kind == "noise":
        data[offset : offset + length] = bytes(rng.randrange(256) for _ in range(length))
    elif kind == "truncated":
        del data[offset + rng.randrange(length) :]
    elif kind == "past-end":
        struct.pack_into(">I", data, record + 8, len(data) + rng.randrange(1, 1 << 20))
    elif kind == "huge-count":
        # The first few 16-bit fields of most tables are a version, then counts and offsets.
        for field in range(2, min(length, 16), 2):
            data[offset + field : offset + field + 2] = b"\xff\xff"
    elif kind == "short":
        struct.pack_into(">I", data, record + 12, rng.randrange(0, min(length, 8) + 1))
    elif kind == "overlap":
        other = rng.choice(records)
        struct.pack_into(">I", data, record + 8, other[2])
    return bytes(data)


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    seed, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    sources = sorted(sys.argv[4:])
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    listing = []
    made = 0
    attempts = 0
    while made < count and attempts < count * 10:
        attempts += 1
        source = sources[attempts % len(sources)]
        with open(source, "rb") as f:
            data = f.read()
        records = tables(data)
        if not records:
            continue
        kind = rng.choice(KINDS)
        table = rng.choice(records)
        damaged = damage(data, kind, table, records, rng)
        made += 1
        stem, ext = os.path.splitext(os.path.basename(source))
        name = f"{made:04d}-{kind}-{table[0].strip().replace('/', '_')}-{stem}{ext.lower()}"
        with open(os.path.join(out, name), "wb") as f:
            f.write(damaged)
        listing.append(f"{name}\t{os.path.abspath(source)}\n")
    with open(os.path.join(out, "sources.tsv"), "w") as f:
        f.writelines(listing)


if __name__ == "__main__":
    main()
