#!/usr/bin/python3
"""Makes the `diff` fixtures of outlines that are the same shape drawn another way (#56), once;
the fonts are committed.

    /usr/bin/python3 make-shape-fixtures.py   (needs python3-fonttools; reads
                                               ../Fonts/DejaVuSerif.ttf and base/; writes
                                               shapes/ beside this script)

`shapes/before/` is Fixture Shapes Regular: DejaVu Serif (Bitstream Vera licence with the DejaVu
changes, ../Fonts/licences/DejaVu.txt) cut to a few letters, unhinted, renamed. Each other
folder of DejaVu is that font with exactly one change (README.md lists them).
`shapes/garamond-cff/` is base/ (EB Garamond, SIL OFL 1.1) cut to the same letters, and
`shapes/garamond-ttf/` the same font converted to TrueType with cu2qu at its default tolerance
(0.001 em), its contours reversed as TrueType draws them.
The product and the tests never run this script.
"""
import importlib.util
import os
from fontTools.ttLib import TTFont, newTable
from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fixtures", os.path.join(HERE, "make-fixtures.py"))
fixtures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixtures)

DEJAVU = os.path.join(HERE, "..", "Fonts", "DejaVuSerif.ttf")
FILE = "FixtureShapes-Regular.ttf"
LETTERS = [ord(c) for c in " ABHORaeiost"] + [0xC1]  # Á: a composite of A and the acute


def out(*parts):
    return fixtures.out("shapes", *parts)


def cut(source, unicodes=LETTERS):
    font = TTFont(source)
    options = subset.Options()
    options.layout_features = ["kern"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.name_languages = [0x409]
    options.hinting = False
    options.notdef_outline = True
    options.glyph_names = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    for tag in ("FFTM", "MATH"):
        if tag in font:
            del font[tag]
    return font


def contours(glyph):
    """The point indices of each contour of a simple glyph."""
    start = 0
    for end in glyph.endPtsOfContours:
        yield list(range(start, end + 1))
        start = end + 1


def reorder(font, name, order_of):
    """Redraws glyph `name` with each contour's points in the order `order_of(index, points)`
    gives (a list of the contour's point indices)."""
    glyph = font["glyf"][name]
    coordinates = list(glyph.coordinates)
    flags = list(glyph.flags)
    new_coordinates, new_flags = [], []
    for index, points in enumerate(contours(glyph)):
        for i in order_of(index, points):
            new_coordinates.append(coordinates[i])
            new_flags.append(flags[i])
    glyph.coordinates = type(glyph.coordinates)(new_coordinates)
    glyph.flags = type(glyph.flags)(new_flags)


def rotated(index, points):
    """The contour starting at its third point (or its second, when shorter)."""
    k = min(2, len(points) - 1)
    return points[k:] + points[:k]


def reversed_contour(index, points):
    return points[:1] + points[:0:-1]


def variant(folder, change):
    font = TTFont(out("before", FILE))
    change(font)
    font.save(out(folder, FILE))


def move_point(font, name, contour, point, dx):
    glyph = font["glyf"][name]
    index = list(contours(glyph))[contour][point]
    x, y = glyph.coordinates[index]
    glyph.coordinates[index] = (x + dx, y)


def rotate_all(font):
    for name in ("A", "B", "O", "a", "e", "o", "s"):
        reorder(font, name, rotated)


def to_truetype(font, max_err):
    """CFF → TrueType through cu2qu, as fontTools' otf2ttf snippet converts."""
    glyph_order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = glyph_order
    glyf.glyphs = {}
    for name in glyph_order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, max_err, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    del font["CFF "]
    font["head"].glyphDataFormat = 0
    font["maxp"].tableVersion = 0x00010000
    for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs",
                 "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions",
                 "maxComponentElements", "maxPoints", "maxContours", "maxCompositePoints",
                 "maxCompositeContours", "maxComponentDepth"):
        setattr(font["maxp"], attr, 0)
    font["maxp"].maxZones = 1
    font["post"].formatType = 2.0
    font["post"].extraNames = []
    font["post"].mapping = {}
    font.sfntVersion = "\x00\x01\x00\x00"
    for name in glyph_order:
        glyf[name].recalcBounds(glyf)
        advance, _ = font["hmtx"][name]
        font["hmtx"][name] = (advance, getattr(glyf[name], "xMin", 0))
    font["maxp"].recalc(font)


if __name__ == "__main__":
    font = cut(DEJAVU)
    fixtures.rename(font, "Fixture Shapes")
    path = out("before", FILE)
    font.save(path)
    TTFont(path).save(path)  # saved twice: a font loaded and saved again holds the same bytes

    # (a) every contour of A B O a e o s starts at another point (Á's A with it).
    variant("rotated", rotate_all)
    # (b) all contours of O, o and B reversed together.
    variant("reversed", lambda f: [reorder(f, n, reversed_contour) for n in ("O", "o", "B")])
    # (c) i's dot reversed, its stem not: the same ink under the nonzero rule.
    variant("one-reversed", lambda f: reorder(
        f, "i", lambda index, points: reversed_contour(index, points) if index == 1 else points))
    # (e) rotated as (a), and one point of e's first contour moved 20 units right.
    variant("rotated-edit", lambda f: (rotate_all(f), move_point(f, "e", 0, 3, 20)))

    # (d) CFF → TrueType with cu2qu at its default tolerance (0.001 em: 1 unit of 1000).
    garamond = cut(fixtures.out("base", "FixtureGaramond-Regular.otf"))
    path = out("garamond-cff", "FixtureGaramond-Regular.otf")
    garamond.save(path)
    converted = TTFont(path)
    to_truetype(converted, max_err=converted["head"].unitsPerEm * 0.001)
    converted.save(out("garamond-ttf", "FixtureGaramond-Regular.ttf"))
