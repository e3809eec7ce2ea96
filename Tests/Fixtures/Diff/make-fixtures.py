#!/usr/bin/python3
"""Makes the `diff` test fonts once, from open fonts Debian ships; the fonts are committed.

    /usr/bin/python3 make-fixtures.py      (needs python3-fonttools, fonts-ebgaramond,
                                            fonts-inter-variable; writes beside this script)

Every change a fixture carries is listed in README.md; the tests expect exactly those.
The product and the tests never run this script.
"""
import os
from fontTools.ttLib import TTFont
from fontTools import subset
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.recordingPen import RecordingPen
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen

HERE = os.path.dirname(os.path.abspath(__file__))
GARAMOND = "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Regular.otf"
INTER = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"
BASIC_LATIN = list(range(0x20, 0x7F))


def out(*parts):
    path = os.path.join(HERE, *parts)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def subsetted(source, features, unicodes=BASIC_LATIN):
    font = TTFont(source)
    options = subset.Options()
    options.layout_features = features
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # keep copyright and licence
    options.hinting = False
    options.notdef_outline = True
    options.glyph_names = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    return font


def rename(font, family, style="Regular"):
    """Family and full names in the name table (Mac and Windows records) and, for CFF, the top
    dictionary, so FreeType, fontconfig and HarfBuzz all read the new name."""
    ps = family.replace(" ", "") + "-" + style.replace(" ", "")
    names = {1: family, 2: style, 3: ps + " (fonti-batch test fixture)", 4: family + " " + style,
             6: ps}
    table = font["name"]
    table.names = [n for n in table.names if n.nameID not in (16, 17)]
    for record in table.names:
        if record.nameID in names:
            record.string = names[record.nameID]
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [ps]
        top = cff.topDictIndex[0]
        top.FamilyName = family
        top.FullName = family + " " + style


def redraw_cff(font, name, transform=lambda x, y: (x, y), width=None):
    """Redraws one CFF glyph through a pen, moving its points with `transform`; `width` sets
    its advance (in the charstring and in hmtx)."""
    glyphs = font.getGlyphSet()
    recording = RecordingPen()
    glyphs[name].draw(recording)
    advance, lsb = font["hmtx"][name]
    if width is not None:
        advance = width
    top = font["CFF "].cff.topDictIndex[0]
    charstrings = top.CharStrings
    private = charstrings[name].private
    pen = T2CharStringPen(advance, glyphs)
    for operator, points in recording.value:
        moved = [transform(x, y) for (x, y) in points]
        getattr(pen, operator)(*moved)
    charstrings[name] = pen.getCharString(private=private, globalSubrs=top.GlobalSubrs)
    font["hmtx"][name] = (advance, lsb)


def static_fixtures():
    base = subsetted(GARAMOND, ["kern", "liga", "smcp"])
    rename(base, "Fixture Garamond")
    base.save(out("base", "FixtureGaramond-Regular.otf"))

    renamed = TTFont(out("base", "FixtureGaramond-Regular.otf"))
    rename(renamed, "Fixture Antiqua")
    renamed.save(out("renamed", "FixtureAntiqua-Regular.otf"))

    # The changed copy: smcp removed (the subsetter drops the feature and its glyphs), then
    # one outline moved, one advance, one character added and one removed, the x-height.
    changed = subsetted(GARAMOND, ["kern", "liga"])
    rename(changed, "Fixture Garamond")
    # R: the points right of its bowl's stem (the leg and bowl) move 40 units right.
    redraw_cff(changed, "R", transform=lambda x, y: (x + 40 if x > 300 else x, y))
    # Q: 40 units wider, same drawing.
    redraw_cff(changed, "Q", width=changed["hmtx"]["Q"][0] + 40)
    for table in changed["cmap"].tables:
        if table.isUnicode():
            table.cmap.pop(0x24, None)  # '$' removed
            table.cmap[0x2010] = "hyphen"  # U+2010 HYPHEN added, drawn with the hyphen
    changed["OS/2"].sxHeight = 420  # was 400
    changed.save(out("changed", "FixtureGaramond-Regular.otf"))


def variable_fixtures():
    base = subsetted(INTER, ["kern"])
    for record in base["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = "Fixture Sans VF"
        elif record.nameID == 6:
            record.string = "FixtureSansVF"
        elif record.nameID == 3:
            record.string = "FixtureSansVF (fonti-batch test fixture)"
    base.save(out("variable", "FixtureSansVF.ttf"))

    # One glyph changed at the instances only: R's point deltas halved (phantom points, the
    # advance, untouched), so R is the same at the default (Regular) and differs elsewhere.
    glyph_changed = TTFont(out("variable", "FixtureSansVF.ttf"))
    r = glyph_changed.getBestCmap()[ord("R")]
    points = len(glyph_changed["glyf"][r].getCoordinates(glyph_changed["glyf"])[0])
    for variation in glyph_changed["gvar"].variations[r]:
        variation.coordinates = [
            (round(c[0] / 2), round(c[1] / 2)) if (i < points and c is not None) else c
            for i, c in enumerate(variation.coordinates)
        ]
    glyph_changed.save(out("variable-glyph", "FixtureSansVF.ttf"))

    # One named instance moved: Bold at wght 650 instead of 700.
    moved = TTFont(out("variable", "FixtureSansVF.ttf"))
    for instance in moved["fvar"].instances:
        if instance.coordinates.get("wght") == 700:
            instance.coordinates["wght"] = 650
    moved.save(out("variable-instance", "FixtureSansVF.ttf"))


def traits_fixture():
    """`base` with one feature's effect gone and one language gained: liga stays listed but
    uses no lookup (so it shows nothing), and the seven letters German needs beyond Basic
    Latin (Ä Ö Ü ä ö ü ß) are mapped to the glyphs of A O U a o u s."""
    font = TTFont(out("base", "FixtureGaramond-Regular.otf"))
    for record in font["GSUB"].table.FeatureList.FeatureRecord:
        if record.FeatureTag == "liga":
            record.Feature.LookupListIndex = []
            record.Feature.LookupCount = 0
    german = {0xC4: "A", 0xD6: "O", 0xDC: "U", 0xE4: "a", 0xF6: "o", 0xFC: "u", 0xDF: "s"}
    for table in font["cmap"].tables:
        if table.isUnicode():
            table.cmap.update(german)
    font.save(out("traits", "FixtureGaramond-Regular.otf"))


def box_fixtures():
    """A font drawn from scratch whose only letter, I, is a pixel-aligned rectangle at 64 px per
    em (1024 units per em: 16 units a pixel): 10 × 20 px before, 11 × 20 px after, so exactly
    20 pixels differ, all by 255 grey levels."""
    for folder, width in (("box-before", 160), ("box-after", 176)):
        builder = FontBuilder(1024, isTTF=True)
        builder.setupGlyphOrder([".notdef", "space", "I"])
        builder.setupCharacterMap({0x20: "space", 0x49: "I"})
        glyphs = {}
        for name in (".notdef", "space"):
            glyphs[name] = TTGlyphPen(None).glyph()
        pen = TTGlyphPen(None)
        pen.moveTo((64, 0))
        pen.lineTo((64, 320))
        pen.lineTo((64 + width, 320))
        pen.lineTo((64 + width, 0))
        pen.closePath()
        glyphs["I"] = pen.glyph()
        builder.setupGlyf(glyphs)
        builder.setupHorizontalMetrics({".notdef": (512, 0), "space": (256, 0), "I": (320, 64)})
        builder.setupHorizontalHeader(ascent=800, descent=-224)
        builder.setupNameTable({"familyName": "Fixture Box", "styleName": "Regular",
                                "uniqueFontIdentifier": "FixtureBox (fonti-batch test fixture)"})
        builder.setupOS2(sTypoAscender=800, sTypoDescender=-224, usWinAscent=800,
                         usWinDescent=224, sxHeight=320, sCapHeight=320)
        builder.setupPost()
        builder.save(out(folder, "FixtureBox-Regular.ttf"))


if __name__ == "__main__":
    static_fixtures()
    variable_fixtures()
    box_fixtures()
    traits_fixture()
