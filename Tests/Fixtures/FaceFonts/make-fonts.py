#!/usr/bin/python3
"""Makes the face-matching fixture fonts from fixtures in ../Fonts. Run once, by hand, with
Debian's python3-fonttools (the product and the tests never run it):

  /usr/bin/python3 make-fonts.py

"Fonti Test Optical", after EB Garamond's optical sizes: FontiTestOptical-08Regular.ttf (style
"08 Regular", DejaVu Serif Book cut to Latin) and FontiTestOptical-12Bold.ttf (style "12 Bold",
DejaVu Serif Bold cut to Latin without U+00EF LATIN SMALL LETTER I WITH DIAERESIS). fontconfig
then credits the bold with no English (its `en` orthography has U+00EF), and matches the
regular for a bold request of the family: what EB Garamond 12 Bold does on Debian. The tests
check that a face named is the face drawn.
"""
import os

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = os.path.dirname(os.path.abspath(__file__))
FONTS = os.path.join(HERE, "..", "Fonts")
FAMILY = "Fonti Test Optical"
LATIN = list(range(0x20, 0x7F)) + list(range(0xA0, 0x180))


def rename(font, style):
    postscript = FAMILY.replace(" ", "") + "-" + style.replace(" ", "")
    names = font["name"]
    for nameID in (16, 17, 21, 22):
        names.removeNames(nameID=nameID)
    for nameID, value in (
        (1, FAMILY), (2, style), (3, f"fonti-tests: {postscript}"), (4, f"{FAMILY} {style}"),
        (6, postscript),
        (10, "Made for fonti-batch's tests from DejaVu Serif (see Fixtures/Fonts/README.md)."),
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
    rename(font, style)
    font.save(os.path.join(HERE, target))


cut("DejaVuSerif.ttf", "FontiTestOptical-08Regular.ttf", LATIN, "08 Regular")
cut("DejaVuSerif-Bold.ttf", "FontiTestOptical-12Bold.ttf", set(LATIN) - {0xEF}, "12 Bold")
