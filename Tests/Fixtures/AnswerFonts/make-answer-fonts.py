#!/usr/bin/python3
"""Makes the fixtures of which face answers for a family, once, with fontTools (run by hand,
never by the tests): `/usr/bin/python3 Tests/Fixtures/AnswerFonts/make-answer-fonts.py`.

From ../ProofFonts/InterVariable-Subset.ttf (Inter, OFL-1.1) and ../Fonts/DejaVuSerif.ttf
(Bitstream Vera / DejaVu licence), each cut down to a few characters and renamed:
  AnswerSans-Regular.ttf     "Answer Sans", static: Inter at wght 400, slnt 0
  AnswerSans-VF.ttf          "Answer Sans", variable: wght 100-900 only, its named instances
                             (static and variable files of one family, as fonts-inter and
                             fonts-inter-variable install Inter)
  AnswerSerif-A-old.ttf      "Answer Serif" version 1.000: DejaVu Serif without the sharp s
  AnswerSerif-B-new.ttf      "Answer Serif" version 2.000: with it (two versions of one font,
                             as fonts-liberation beside fonts-liberation2; the older file comes
                             first in fontconfig's order)
  AnswerSlant-VF.ttf         "Answer Slant": wght 100-900 and slnt -10-0, upright named
                             instances only: its italic is only a position on slnt
  AnswerFlat-VF.ttf          "Answer Flat": wght 100-900 declared, but no gvar or HVAR: an
                             axis that varies nothing
"""
import os

from fontTools import subset
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer

HERE = os.path.dirname(os.path.abspath(__file__))
INTER = os.path.join(HERE, "..", "ProofFonts", "InterVariable-Subset.ttf")
DEJAVU = os.path.join(HERE, "..", "Fonts", "DejaVuSerif.ttf")
TEXT = "Hamburgefonstiv HAMBURG 0123456789 .,"


def cut(path, text):
    font = TTFont(path)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    s = subset.Subsetter(options)
    s.populate(text=text)
    s.subset(font)
    return font


def rename(font, family, style="Regular"):
    name = font["name"]
    ps = family.replace(" ", "") + "-" + style.replace(" ", "")
    for record in list(name.names):
        if record.nameID in (16, 17, 21, 22, 25):
            name.removeNames(nameID=record.nameID)
    for platform in ((3, 1, 0x409), (1, 0, 0)):
        name.setName(family, 1, *platform)
        name.setName(style, 2, *platform)
        name.setName(family + " " + style, 4, *platform)
        name.setName(ps, 6, *platform)
        name.setName(family + ";" + style, 3, *platform)


def save(font, file):
    font.save(os.path.join(HERE, file))


def upright_instances(font, keep_slant):
    fvar = font["fvar"]
    fvar.instances = [
        i for i in fvar.instances if i.coordinates.get("slnt", 0) == 0
    ]
    if not keep_slant:
        for i in fvar.instances:
            i.coordinates.pop("slnt", None)


# Answer Sans: static and variable.
static = instancer.instantiateVariableFont(cut(INTER, TEXT), {"wght": 400, "slnt": 0})
rename(static, "Answer Sans")
static["head"].fontRevision = 4.0
save(static, "AnswerSans-Regular.ttf")
vf = instancer.instantiateVariableFont(cut(INTER, TEXT), {"slnt": 0})
upright_instances(vf, keep_slant=False)
rename(vf, "Answer Sans")
vf["head"].fontRevision = 4.0
save(vf, "AnswerSans-VF.ttf")

# Answer Serif: two versions.
old = cut(DEJAVU, TEXT)
rename(old, "Answer Serif")
old["head"].fontRevision = 1.0
save(old, "AnswerSerif-A-old.ttf")
new = cut(DEJAVU, TEXT + "\u00df")
rename(new, "Answer Serif")
new["head"].fontRevision = 2.0
save(new, "AnswerSerif-B-new.ttf")

# Answer Slant: its italic is only a slnt position.
slant = cut(INTER, TEXT)
upright_instances(slant, keep_slant=True)
rename(slant, "Answer Slant")
save(slant, "AnswerSlant-VF.ttf")

# Answer Flat: an axis that varies nothing.
flat = instancer.instantiateVariableFont(cut(INTER, TEXT), {"slnt": 0})
upright_instances(flat, keep_slant=False)
for tag in ("gvar", "HVAR", "MVAR", "STAT", "avar"):
    if tag in flat:
        del flat[tag]
rename(flat, "Answer Flat")
save(flat, "AnswerFlat-VF.ttf")
