#!/usr/bin/python3
# Makes the colour vector fonts once (run by hand with /usr/bin/python3 and fontTools'
# colorLib; the tests never run it). Each is a tiny font drawn here, glyphs A-D (and a-d, the
# same glyphs), public domain (CC0):
#
#   ColourZeroTest.ttf  family "Colour Zero Test": COLR version 0, one CPAL palette; B is one
#                       square in the foreground colour (palette index 0xFFFF), A and C have a
#                       foreground layer over coloured ones, D has none.
#   ColourOneTest.ttf   family "Colour One Test": COLR version 1 (a linear gradient on A, a
#                       radial one on C, solid paints on B and D), two CPAL palettes.
#
# For the tests that foreground layers take the theme's text colour and that a COLRv1 font is
# labelled and warned of (`colour-not-drawn`) until it is painted.
import importlib.util
import os
import struct

from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.ttLib.tables.DefaultTable import DefaultTable

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "make_proof_fonts", os.path.join(HERE, "..", "make-proof-fonts.py"))
_proof_fonts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_proof_fonts)

SQUARE = [(100, 0), (100, 600), (500, 600), (500, 0)]
TRIANGLE = [(100, 0), (300, 700), (500, 0)]
BAR = [(100, 250), (100, 350), (500, 350), (500, 250)]
DOT = [(250, 250), (250, 350), (350, 350), (350, 250)]
LETTERS = "ABCD"
RED, BLUE, GREEN = (0.8, 0.1, 0.1, 1.0), (0.1, 0.2, 0.8, 1.0), (0.2, 0.6, 0.2, 1.0)
FOREGROUND = 0xFFFF


def font(family):
    glyphs = {".notdef": SQUARE, "space": None}
    cmap = {0x20: "space"}
    for letter, shape in zip(LETTERS, [SQUARE, SQUARE, TRIANGLE, SQUARE]):
        glyphs[letter] = shape
        cmap[ord(letter)] = letter
        cmap[ord(letter.lower())] = letter
    glyphs.update({"layer.square": SQUARE, "layer.triangle": TRIANGLE, "layer.bar": BAR,
                   "layer.dot": DOT})
    return _proof_fonts.drawn_font(glyphs, cmap, family)


def raw(tag, data):
    table = DefaultTable(tag)
    table.data = data
    return table


def colour_zero():
    """COLR version 0 written by hand (colorLib refuses palette index 0xFFFF in version 0)."""
    layers = {"A": [("layer.square", 0), ("layer.bar", FOREGROUND)],
              "B": [("layer.square", FOREGROUND)],
              "C": [("layer.triangle", 1), ("layer.dot", FOREGROUND)],
              "D": [("layer.square", 2), ("layer.bar", 1)]}
    fb = font("Colour Zero Test")
    gid = {n: i for i, n in enumerate(fb.font.getGlyphOrder())}
    records, layer_records = b"", b""
    for letter in sorted(LETTERS, key=lambda name: gid[name]):
        records += struct.pack(">HHH", gid[letter], len(layer_records) // 4, len(layers[letter]))
        for glyph, index in layers[letter]:
            layer_records += struct.pack(">HH", gid[glyph], index)
    header = struct.pack(">HHIIH", 0, len(LETTERS), 14, 14 + len(records), len(layer_records) // 4)
    fb.font["COLR"] = raw("COLR", header + records + layer_records)
    fb.font["CPAL"] = buildCPAL([[RED, BLUE, GREEN]])
    return fb


def colour_one():
    linear = {"Format": 4, "ColorLine": {"ColorStop": [(0.0, 0), (1.0, 1)]},
              "x0": 100, "y0": 0, "x1": 500, "y1": 600, "x2": 100, "y2": 600}
    radial = {"Format": 6, "ColorLine": {"ColorStop": [(0.0, 2), (1.0, 0)]},
              "x0": 300, "y0": 300, "r0": 0, "x1": 300, "y1": 300, "r1": 300}
    glyphs = {
        "A": {"Format": 10, "Paint": linear, "Glyph": "layer.square"},
        "B": {"Format": 10, "Paint": {"Format": 2, "PaletteIndex": 1, "Alpha": 1.0},
              "Glyph": "layer.square"},
        "C": {"Format": 10, "Paint": radial, "Glyph": "layer.triangle"},
        "D": (1, [{"Format": 10, "Paint": {"Format": 2, "PaletteIndex": 2, "Alpha": 1.0},
                   "Glyph": "layer.square"},
                  {"Format": 10, "Paint": {"Format": 2, "PaletteIndex": 0, "Alpha": 1.0},
                   "Glyph": "layer.bar"}]),
    }
    fb = font("Colour One Test")
    fb.font["COLR"] = buildCOLR(glyphs, version=1, glyphMap=fb.font.getReverseGlyphMap())
    fb.font["CPAL"] = buildCPAL([[RED, BLUE, GREEN], [GREEN, RED, BLUE]])
    return fb


for fb, name in [(colour_zero(), "ColourZeroTest.ttf"), (colour_one(), "ColourOneTest.ttf")]:
    path = os.path.join(HERE, name)
    fb.save(path)
    print(f"{path}: {os.path.getsize(path)} bytes")
