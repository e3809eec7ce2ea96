#!/usr/bin/python3
"""Makes the colour glyph fixtures of `diff` once (run by hand with /usr/bin/python3 and
fontTools; the tests never run it), into colour/: for each colour format a tiny font drawn by
this script (glyphs A-D, squares and triangles, public domain), and

  <format>-before/   the font
  <format>-after/    the font with exactly one glyph's colour changed
  <format>-repacked/ the before font with its colour table written another way: other bytes,
                     other offsets or order, the same colour glyphs (diff must say unchanged)

README.md lists them.
"""
import gzip
import importlib.util
import os
import shutil
import struct
import zlib

from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.ttLib.tables.DefaultTable import DefaultTable

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "colour")
_spec = importlib.util.spec_from_file_location(
    "make_proof_fonts", os.path.join(HERE, "..", "make-proof-fonts.py"))
_proof_fonts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_proof_fonts)

SQUARE = [(100, 0), (100, 600), (500, 600), (500, 0)]
TRIANGLE = [(100, 0), (300, 700), (500, 0)]
BAR = [(100, 250), (100, 350), (500, 350), (500, 250)]
DOT = [(250, 250), (250, 350), (350, 350), (350, 250)]
LETTERS = "ABCD"
PALETTE = [(0.8, 0.1, 0.1, 1.0), (0.1, 0.2, 0.8, 1.0), (0.2, 0.6, 0.2, 1.0)]


def font(family, layers=False):
    """A FontBuilder of A-D (and layer glyphs), family `family`."""
    glyphs = {".notdef": SQUARE, "space": None}
    cmap = {0x20: "space"}
    for letter, shape in zip(LETTERS, [SQUARE, TRIANGLE, SQUARE, TRIANGLE]):
        glyphs[letter] = shape
        cmap[ord(letter)] = letter
    if layers:
        glyphs.update({"layer.square": SQUARE, "layer.bar": BAR, "layer.dot": DOT})
    return _proof_fonts.drawn_font(glyphs, cmap, family)


def raw(tag, data):
    """A table of exactly these bytes."""
    table = DefaultTable(tag)
    table.data = data
    return table


def save(fb, folder, name):
    path = os.path.join(OUT, folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fb.save(path)
    print(f"{path}: {os.path.getsize(path)} bytes")


# COLR version 0: each letter a list of layers.

V0 = {"A": [("layer.square", 0), ("layer.dot", 1)], "B": [("layer.square", 1)],
      "C": [("layer.bar", 0), ("layer.dot", 2)], "D": [("layer.square", 2), ("layer.bar", 1)]}


def colr_v0(layers, order=None):
    """COLR version 0 written by hand: base glyph records by glyph ID, layer records in the
    order of `order` (letters; default A-D), so that the same layers can lie elsewhere."""
    fb = font("Fixture COLR Zero", layers=True)
    gid = {n: i for i, n in enumerate(fb.font.getGlyphOrder())}
    records = b""
    layer_records = b""
    first = {}
    for letter in order or LETTERS:
        first[letter] = len(layer_records) // 4
        for glyph, palette in layers[letter]:
            layer_records += struct.pack(">HH", gid[glyph], palette)
    for letter in LETTERS:
        records += struct.pack(">HHH", gid[letter], first[letter], len(layers[letter]))
    header = struct.pack(">HHIIH", 0, len(LETTERS), 14, 14 + len(records), len(layer_records) // 4)
    fb.font["COLR"] = raw("COLR", header + records + layer_records)
    fb.font["CPAL"] = buildCPAL([PALETTE])
    return fb


def make_colr_v0():
    name = "FixtureCOLRZero-Regular.ttf"
    save(colr_v0(V0), "colrv0-before", name)
    changed = dict(V0, C=[("layer.bar", 0), ("layer.dot", 1)])  # C's dot: colour 2 → 1
    save(colr_v0(changed), "colrv0-after", name)
    save(colr_v0(V0, order="DCBA"), "colrv0-repacked", name)


# COLR version 1: paint graphs (a gradient, glyphs, a transform, shared layers).

def v1_glyphs(stop=(1, 1.0), dot="layer.dot"):
    gradient = {"Format": 4, "ColorLine": {"ColorStop": [(0.0, 0), (1.0, *stop)]},
                "x0": 100, "y0": 0, "x1": 500, "y1": 600, "x2": 100, "y2": 600}
    shared = [{"Format": 10, "Paint": {"Format": 2, "PaletteIndex": 2, "Alpha": 1.0},
               "Glyph": "layer.bar"},
              {"Format": 10, "Paint": {"Format": 2, "PaletteIndex": 0, "Alpha": 1.0},
               "Glyph": dot}]
    return {
        "A": (1, [{"Format": 10, "Paint": gradient, "Glyph": "layer.square"}] + shared),
        "B": {"Format": 10, "Paint": {"Format": 2, "PaletteIndex": 1, "Alpha": 0.5},
              "Glyph": "B"},
        "C": (1, [{"Format": 14, "Paint": {"Format": 10, "Paint": {
            "Format": 2, "PaletteIndex": 0, "Alpha": 1.0}, "Glyph": "layer.square"},
            "dx": 20, "dy": 0}] + shared),
        "D": {"Format": 11, "Glyph": "B"},
    }


def colr_v1(glyphs, reuse=True):
    fb = font("Fixture COLR One", layers=True)
    fb.font["COLR"] = buildCOLR(
        glyphs, version=1, glyphMap=fb.font.getReverseGlyphMap(),
        clipBoxes={"A": (0, 0, 600, 700)}, allowLayerReuse=reuse)
    fb.font["CPAL"] = buildCPAL([PALETTE])
    return fb


def make_colr_v1():
    name = "FixtureCOLROne-Regular.ttf"
    save(colr_v1(v1_glyphs()), "colrv1-before", name)
    # A's gradient: its last stop colour 1 → 2 (A only; the shared layers stay).
    save(colr_v1(v1_glyphs(stop=(2, 1.0))), "colrv1-after", name)
    # No layer reuse: A's and C's shared layers each written out, other offsets.
    save(colr_v1(v1_glyphs(), reuse=False), "colrv1-repacked", name)


# CBDT/CBLC: two strikes (16 and 32 ppem) of PNG images (format 17).

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(size, rgba):
    rows = b"".join(b"\0" + bytes(rgba) * size for _ in range(size))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


COLOURS = {"A": (200, 40, 40, 255), "B": (40, 40, 200, 255), "C": (40, 160, 40, 255),
           "D": (200, 160, 40, 255)}


def image17(size, rgba):
    data = png(size, rgba)
    return struct.pack(">BBbbBI", size, size, 0, size - 2, size, len(data)) + data


def cbdt(colours, first, repack=False):
    """CBLC and CBDT for A-D (glyphs first..first+3) at 16 and 32 ppem. Repacked: each strike
    indexed by two subtables (A-B with 32-bit offsets, C-D with 16-bit ones) whose images lie
    C-D first, the strikes' images in the other order in CBDT."""
    data = bytearray(struct.pack(">HH", 3, 0))
    strikes = []
    for ppem in ((32, 16) if repack else (16, 32)):
        images = {letter: image17(ppem, colours[letter]) for letter in LETTERS}
        groups = [("CD", 3), ("AB", 1)] if repack else [("ABCD", 1)]
        subtables = []
        for letters, index_format in groups:
            start = len(data)
            offsets = [0]
            for letter in letters:
                data += images[letter]
                offsets.append(len(data) - start)
            size = 4 if index_format == 1 else 2
            body = b"".join(struct.pack(">I" if size == 4 else ">H", o) for o in offsets)
            if size == 2 and len(body) % 4:
                body += b"\0\0"
            glyph = first + LETTERS.index(letters[0])
            subtables.append((glyph, glyph + len(letters) - 1,
                              struct.pack(">HHI", index_format, 17, start) + body))
        strikes.append((ppem, sorted(subtables)))
    strikes.sort(key=lambda s: s[0] if not repack else -s[0])
    cblc = bytearray(struct.pack(">HHI", 3, 0, len(strikes)))
    arrays = bytearray()
    records = []
    array_base = 8 + 48 * len(strikes)
    for ppem, subtables in strikes:
        array_at = array_base + len(arrays)
        entries = bytearray()
        bodies = bytearray()
        for glyph, last, body in subtables:
            entries += struct.pack(">HHI", glyph, last, 8 * len(subtables) + len(bodies))
            bodies += body
        arrays += entries + bodies
        line = struct.pack(">bbBbbbbbbbbb", ppem - 2, -2, ppem, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        records.append(struct.pack(">IIII", array_at, len(entries) + len(bodies),
                                   len(subtables), 0) + line + line
                       + struct.pack(">HHBBBb", first, first + 3, ppem, ppem, 32, 1))
    cblc += b"".join(records) + arrays
    return bytes(cblc), bytes(data)


def bitmap_font(family, build):
    fb = font(family)
    first = fb.font.getGlyphOrder().index("A")
    for tag, data in build(first):
        fb.font[tag] = raw(tag, data)
    return fb


def make_cbdt():
    name = "FixtureCBDT-Regular.ttf"
    changed = dict(COLOURS, B=(120, 40, 160, 255))

    def tables(colours, repack=False):
        def build(first):
            cblc, data = cbdt(colours, first, repack)
            return [("CBLC", cblc), ("CBDT", data)]
        return build
    save(bitmap_font("Fixture CBDT", tables(COLOURS)), "cbdt-before", name)
    save(bitmap_font("Fixture CBDT", tables(changed)), "cbdt-after", name)
    save(bitmap_font("Fixture CBDT", tables(COLOURS, repack=True)), "cbdt-repacked", name)


# sbix: two strikes (16 and 32 ppem) of PNG images.

def sbix(colours, glyph_count, first, reverse=False):
    """An sbix table for glyphs first..first+3; `reverse` writes the strikes in the other order
    with padding between them."""
    strikes = []
    for ppem in (16, 32):
        offsets = []
        body = bytearray()
        head = 4 + 4 * (glyph_count + 1)
        for g in range(glyph_count):
            offsets.append(head + len(body))
            if first <= g < first + 4:
                body += struct.pack(">hh4s", 0, 0, b"png ") + png(ppem, colours[LETTERS[g - first]])
        offsets.append(head + len(body))
        strikes.append(struct.pack(">HH", ppem, 72) + b"".join(struct.pack(">I", o) for o in offsets)
                       + bytes(body))
    order = [1, 0] if reverse else [0, 1]
    header_size = 8 + 4 * len(strikes)
    table = bytearray()
    places = {}
    for i in order:
        if reverse:
            table += b"\0" * 8
        places[i] = header_size + len(table)
        table += strikes[i]
    return struct.pack(">HHI", 1, 1, len(strikes)) + b"".join(
        struct.pack(">I", places[i]) for i in range(len(strikes))) + bytes(table)


def make_sbix():
    name = "FixtureSbix-Regular.ttf"
    changed = dict(COLOURS, C=(40, 40, 40, 255))

    def tables(colours, reverse=False):
        def build(first):
            return [("sbix", sbix(colours, 6, first, reverse))]
        return build
    save(bitmap_font("Fixture Sbix", tables(COLOURS)), "sbix-before", name)
    save(bitmap_font("Fixture Sbix", tables(changed)), "sbix-after", name)
    save(bitmap_font("Fixture Sbix", tables(COLOURS, reverse=True)), "sbix-repacked", name)


# SVG: A and B in one document, C and D each in their own.

def svg_document(glyphs, fill):
    paths = "".join(f'<rect id="glyph{g}" x="100" y="-600" width="400" height="600" fill="{fill[g]}"/>'
                    for g in glyphs)
    return ('<svg xmlns="http://www.w3.org/2000/svg" version="1.1">' + paths + "</svg>").encode()


def svg(first, fills, split=False):
    """An SVG table. `split`: A and B each with its own record of the same document, the
    documents in reverse order, D's gzip-compressed."""
    gids = {letter: first + i for i, letter in enumerate(LETTERS)}
    fill = {gids[letter]: fills[letter] for letter in LETTERS}
    ab = svg_document([gids["A"], gids["B"]], fill)
    docs = [(gids["A"], gids["B"], ab), (gids["C"], gids["C"], svg_document([gids["C"]], fill)),
            (gids["D"], gids["D"], svg_document([gids["D"]], fill))]
    if split:
        docs = [(gids["A"], gids["A"], ab), (gids["B"], gids["B"], ab)] + docs[1:]
        docs[-1] = (docs[-1][0], docs[-1][1], gzip.compress(docs[-1][2], mtime=0))
    records = b""
    storage = bytearray()
    place = 2 + 12 * len(docs)
    placed = {}
    for start, end, doc in (reversed(docs) if split else docs):
        if doc not in placed:
            placed[doc] = place + len(storage)
            storage += doc
    for start, end, doc in docs:
        records += struct.pack(">HHII", start, end, placed[doc], len(doc))
    return struct.pack(">HII", 0, 10, 0) + struct.pack(">H", len(docs)) + records + bytes(storage)


def make_svg():
    name = "FixtureSVG-Regular.ttf"
    fills = {"A": "#C82828", "B": "#2828C8", "C": "#28A028", "D": "#C8A028"}

    def build(fills, split=False):
        return lambda first: [("SVG ", svg(first, fills, split))]
    save(bitmap_font("Fixture SVG", build(fills)), "svg-before", name)
    save(bitmap_font("Fixture SVG", build(dict(fills, D="#000000"))), "svg-after", name)
    save(bitmap_font("Fixture SVG", build(fills, split=True)), "svg-repacked", name)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    make_colr_v0()
    make_colr_v1()
    make_cbdt()
    make_sbix()
    make_svg()


if __name__ == "__main__":
    main()
