#!/usr/bin/python3
"""Makes the `diff` fixtures of a family that moved between static fonts and a variable font
(#56, item 5), once; the fonts are committed.

    /usr/bin/python3 make-migration-fixtures.py   (needs python3-fonttools; reads variable/;
                                                   writes migration/ beside this script)

`migration/variable/` is Fixture Migration: `variable/` (Inter's roman variable font, SIL Open
Font License 1.1, ../Fonts/licences/Inter.txt) cut to the characters of the default sample text
and R, with its named instances cut to Regular (wght 400) and Bold (wght 700), renamed.
`migration/static/` holds its two named instances as static fonts, made by
fontTools.varLib.instancer. `migration/static-edit/` is `static/` with exactly one change: in
the Bold, R's points right of x 700 moved 30 units right (R is not in the sample text).
The product and the tests never run this script.
"""
import os
from fontTools.ttLib import TTFont
from fontTools import subset
from fontTools.varLib import instancer

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "variable", "FixtureSansVF.ttf")
FAMILY = "Fixture Migration"
TEXT = "Sphinx of black quartz, judge my vow.R"
KEPT = {"Regular": 400.0, "Bold": 700.0}


def out(*parts):
    path = os.path.join(HERE, "migration", *parts)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def set_names(font, style):
    ps = FAMILY.replace(" ", "") + "-" + style
    names = {1: FAMILY, 2: style, 3: ps + " (fonti-batch test fixture)",
             4: FAMILY + " " + style, 6: ps}
    table = font["name"]
    for record in table.names:
        if record.nameID in names:
            record.string = names[record.nameID]


def variable():
    font = TTFont(SOURCE)
    options = subset.Options()
    options.layout_features = ["kern"]
    options.name_IDs = ["*"]
    options.hinting = False
    options.notdef_outline = True
    options.glyph_names = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=TEXT)
    subsetter.subset(font)
    fvar = font["fvar"]
    fvar.instances = [i for i in fvar.instances
                      if font["name"].getDebugName(i.subfamilyNameID) in KEPT]
    set_names(font, "Regular")
    return font


def static(font, style):
    made = instancer.instantiateVariableFont(font, {"wght": KEPT[style]}, inplace=False)
    set_names(made, style)
    os2 = made["OS/2"]
    os2.usWeightClass = int(KEPT[style])
    if style == "Bold":
        os2.fsSelection = (os2.fsSelection & ~0x40) | 0x20
        made["head"].macStyle |= 1
    return made


def main():
    vf = variable()
    vf.save(out("variable", "FixtureMigration[wght].ttf"))
    for style in KEPT:
        static(vf, style).save(out("static", "FixtureMigration-%s.ttf" % style))
    edited = static(vf, "Bold")
    glyph = edited["glyf"][edited.getBestCmap()[ord("R")]]
    coordinates = glyph.coordinates
    for i, (x, y) in enumerate(coordinates):
        if x > 700:
            coordinates[i] = (x + 30, y)
    glyph.recalcBounds(edited["glyf"])
    edited.save(out("static-edit", "FixtureMigration-Bold.ttf"))
    static(vf, "Regular").save(out("static-edit", "FixtureMigration-Regular.ttf"))


if __name__ == "__main__":
    main()
