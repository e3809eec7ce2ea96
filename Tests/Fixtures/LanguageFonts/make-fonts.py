#!/usr/bin/python3
"""Makes the language-coverage fixture fonts from fixtures in ../Fonts. Run once, by hand, with
Debian's python3-fonttools (the product and the tests never run it):

  /usr/bin/python3 make-fonts.py

FontiTestSerif-Regular.ttf, FontiTestSerif-Bold.ttf ("Fonti Test Serif"): DejaVu Serif Book and
Bold cut down to Latin, without hinting. The regular lacks exactly three of the characters
fontconfig requires for Vietnamese (U+1EA0, U+1EA1, U+1EF9), so `vi` is "nearly" supported
with those three missing. The bold lacks six more that the regular has (U+0110, U+0111,
U+01A0, U+01A1, U+01AF, U+01B0), for the "faces that lack characters the regular has" warning.

FontiTestSymbol.ttf ("Fonti Test Symbol"): URW D050000L (a dingbats font whose own cmap maps its
pictographs to ASCII and Latin-1 code points) converted to TrueType outlines and re-encoded as
a true symbol font: one (3,0) "Microsoft Symbol" cmap subtable at U+F020-U+F0FE and the Symbol
code page bit in OS/2, so that fontconfig marks it `symbol` and duplicates its U+F0xx
characters at U+00xx in its charset. (TrueType, because FreeType gives a CFF font a Unicode
cmap made from its glyph names, and fontconfig would then never look at the symbol cmap.)
"""
import os

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables._c_m_a_p import cmap_format_4

HERE = os.path.dirname(os.path.abspath(__file__))
FONTS = os.path.join(HERE, "..", "Fonts")

LATIN = (
    list(range(0x20, 0x7F)) + list(range(0xA0, 0x250)) + list(range(0x300, 0x370))
    + list(range(0x1EA0, 0x1F00)) + list(range(0x2010, 0x2028)) + [0x2030, 0x2039, 0x203A, 0x20AC]
)
REGULAR_LACKS = {0x1EA0, 0x1EA1, 0x1EF9}
BOLD_ALSO_LACKS = {0x0110, 0x0111, 0x01A0, 0x01A1, 0x01AF, 0x01B0}


def rename(font, family, style, origin):
    full = family if style == "Regular" else f"{family} {style}"
    postscript = family.replace(" ", "") + "-" + style
    names = font["name"]
    for nameID in (16, 17, 21, 22):
        names.removeNames(nameID=nameID)
    for nameID, value in (
        (1, family), (2, style), (3, f"fonti-tests: {postscript}"), (4, full), (6, postscript),
        (10, f"Made for fonti-batch's tests from {origin} (see Fixtures/Fonts/README.md)."),
    ):
        names.setName(value, nameID, 3, 1, 0x409)
        names.setName(value, nameID, 1, 0, 0)


def cut(source, target, unicodes, style):
    options = subset.Options()
    options.layout_features = ["*"]
    options.hinting = False
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables += ["FFTM"]
    font = TTFont(os.path.join(FONTS, source))
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    subsetter.subset(font)
    rename(font, "Fonti Test Serif", style, "DejaVu Serif")
    font.save(os.path.join(HERE, target))


def symbol():
    font = TTFont(os.path.join(FONTS, "D050000L.otf"))
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    outlines = {}
    for name in order:
        pen = TTGlyphPen(glyphs)
        glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        outlines[name] = pen.glyph()
    best = font.getBestCmap()
    del font["CFF "]
    for tag in ("PCLT", "DSIG"):
        if tag in font:
            del font[tag]
    font.sfntVersion = "\x00\x01\x00\x00"
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = outlines
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    maxp.numGlyphs = len(order)
    for field in (
        "maxPoints", "maxContours", "maxCompositePoints", "maxCompositeContours", "maxTwilightPoints",
        "maxStorage", "maxFunctionDefs", "maxInstructionDefs", "maxStackElements",
        "maxSizeOfInstructions", "maxComponentElements", "maxComponentDepth",
    ):
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    font["maxp"] = maxp
    font["head"].glyphDataFormat = 0
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    table = cmap_format_4(4)
    table.platformID, table.platEncID, table.language = 3, 0, 0
    table.cmap = {0xF000 + code: glyph for code, glyph in best.items() if code <= 0xFF}
    font["cmap"].tables = [table]
    os2 = font["OS/2"]
    os2.ulCodePageRange1 = 1 << 31  # Symbol character set
    os2.ulCodePageRange2 = 0
    os2.usFirstCharIndex = min(table.cmap)
    os2.usLastCharIndex = max(table.cmap)
    rename(font, "Fonti Test Symbol", "Regular", "URW D050000L")
    font.save(os.path.join(HERE, "FontiTestSymbol.ttf"))


cut("DejaVuSerif.ttf", "FontiTestSerif-Regular.ttf", set(LATIN) - REGULAR_LACKS, "Regular")
cut("DejaVuSerif-Bold.ttf", "FontiTestSerif-Bold.ttf",
    set(LATIN) - REGULAR_LACKS - BOLD_ALSO_LACKS, "Bold")
symbol()
