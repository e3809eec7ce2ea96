#!/usr/bin/python3
"""Makes the fixtures of what a font declares (OS/2, head, name, hinting, colour) once; the fonts
are committed.

    /usr/bin/python3 make-declared-fixtures.py   (needs python3-fonttools; reads
                                                  ../Fonts/DejaVuSerif.ttf and base/; writes
                                                  declared/ beside this script)

`declared/before/` is Fixture Declared Regular: DejaVu Serif (Bitstream Vera licence, see
../Fonts/licences/DejaVu.txt) cut to Basic Latin with its TrueType hinting (fpgm, prep, cvt,
gasp, glyph instructions) and its MATH table, renamed. Every other folder is that font with
exactly one change (README.md lists them); `colour-before/` and `colour-after/` are a COLR/CPAL
font made from base/ (EB Garamond, SIL OFL 1.1). Every font is saved by fontTools, so the tables
a pair does not change hold the same bytes on both sides.
The product and the tests never run this script.
"""
import importlib.util
import os
from fontTools.ttLib import TTFont, newTable
from fontTools import subset
from fontTools.colorLib.builder import buildCOLR, buildCPAL

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fixtures", os.path.join(HERE, "make-fixtures.py"))
fixtures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixtures)

DEJAVU = os.path.join(HERE, "..", "Fonts", "DejaVuSerif.ttf")
FILE = "FixtureDeclared-Regular.ttf"
COLOUR = "FixtureColour-Regular.otf"


def out(*parts):
    return fixtures.out("declared", *parts)


def before():
    font = TTFont(DEJAVU)
    options = subset.Options()
    options.layout_features = ["kern", "liga"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.name_languages = [0x409]
    options.hinting = True
    options.notdef_outline = True
    options.glyph_names = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=fixtures.BASIC_LATIN)
    subsetter.subset(font)
    if "FFTM" in font:
        del font["FFTM"]
    fixtures.rename(font, "Fixture Declared")
    path = out("before", FILE)
    font.save(path)
    # Saved twice, so that a font loaded from it and saved again holds the same bytes.
    TTFont(path).save(path)


def variant(folder, change, reorder=False):
    font = TTFont(out("before", FILE))
    change(font)
    if reorder:
        tags = [t for t in font.reader.keys()] if font.reader else list(font.keys())
        copy = TTFont()
        for tag in reversed(sorted(tags)):
            copy[tag] = font[tag]
        copy.setGlyphOrder(font.getGlyphOrder())
        copy.save(out(folder, FILE), reorderTables=False)
        return
    font.save(out(folder, FILE))


def weight(font):
    font["OS/2"].usWeightClass = 300


def italic(font):
    font["OS/2"].fsSelection = (font["OS/2"].fsSelection | 0x01) & ~0x40  # ITALIC, not REGULAR
    font["head"].macStyle |= 0x02


def fs_type(font):
    font["OS/2"].fsType = 0x0004  # preview & print


def licence(font):
    for record in font["name"].names:
        if record.nameID == 13:
            record.string = "This Font Software is licensed under the SIL Open Font License, Version 1.1."


def dehinted(font):
    for tag in ("fpgm", "prep", "cvt ", "gasp"):
        del font[tag]
    for name in font.getGlyphOrder():
        font["glyf"][name].removeHinting()


def version(font):
    font["head"].fontRevision = 2.5
    for record in font["name"].names:
        if record.nameID == 5:
            record.string = "Version 2.500"


def dsig(font):
    table = newTable("DSIG")
    table.ulVersion = 1
    table.usFlag = 0
    table.usNumSigs = 0
    table.signatureRecords = []
    font["DSIG"] = table


def colour(palette):
    font = TTFont(fixtures.out("base", "FixtureGaramond-Regular.otf"))
    fixtures.rename(font, "Fixture Colour")
    # Every letter drawn by itself in palette colour 0, with O and o also filled in colour 1.
    layers = {}
    for code in range(0x41, 0x5B):
        for name in (chr(code), chr(code).lower()):
            layers[name] = [(name, 0)] + ([("O", 1)] if name in ("O", "o") else [])
    font["COLR"] = buildCOLR(layers, version=0)
    font["CPAL"] = buildCPAL([palette])
    return font


if __name__ == "__main__":
    before()
    variant("weight", weight)
    variant("italic", italic)
    variant("fstype", fs_type)
    variant("licence", licence)
    variant("dehinted", dehinted)
    variant("version", version)
    variant("dsig", dsig)
    variant("reordered", lambda font: None, reorder=True)
    red, blue, grey = (0.8, 0.1, 0.1, 1.0), (0.1, 0.2, 0.8, 1.0), (0.5, 0.5, 0.5, 1.0)
    colour([red, grey]).save(out("colour-before", COLOUR))
    colour([blue, grey]).save(out("colour-after", COLOUR))
