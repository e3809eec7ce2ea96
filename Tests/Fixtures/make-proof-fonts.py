#!/usr/bin/python3
"""Makes the proofs fixtures once, from Debian's font packages, with fontTools (run by hand,
never by the tests): `/usr/bin/python3 Tests/Fixtures/make-proof-fonts.py`.

ProofFonts/ (scanned by fonts-proofs.conf, not by fonts.conf):
  InterVariable-Subset.ttf     Inter.var.ttf (fonts-inter-variable 4.0~beta7): wght 100-900 and
                               slnt -10-0, 18 named instances, every layout feature kept;
                               letters, figures, " .,:-()/" and the sharp s
  EBGaramond12-Subset.otf      EBGaramond12-Regular.otf (fonts-ebgaramond 0.016): smcp, onum, frac,
                               ss01 (named), locl (Serbian, Macedonian, Turkish, Catalan...)
  EBGaramond12-Italic-Subset.otf  its italic: features the roman lacks (swsh, init, fina, clig)
  EBGaramondNoLayout.otf       the roman subset with GSUB, GPOS and GDEF dropped, renamed to
                               the family "EB Garamond No Layout"
  ProofCopies.ttf              drawn here, family "Proof Copies": `salt` swaps a and b for
                               identical copies (nothing to see), `ss01` swaps b for a real
                               alternate
HostileFonts/ (not scanned by fontconfig; read straight from the files):
  truncated.ttf                the first 6,000 bytes of the Inter subset
  random.ttf                   4,096 random bytes (seeded)
  huge-names.ttf               an Inter subset whose axis, instance, family and ss01 names are
                               11,200 characters with control characters and bidi overrides
  empty-gsub.ttf               an Inter subset whose GSUB has no scripts, features or lookups
  broken-layout.ttf            GSUB features point at lookups that do not exist, fvar axis
                               values out of order, an instance named by a missing name ID
  many-axes.ttf                Proof Copies with an fvar of 300 axes (tags A000…A299) and
                               three named instances
All derived from OFL-1.1 fonts without a Reserved Font Name; licences in ProofFonts/licences/.
"""
import os
import random

from fontTools import subset
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables import otTables

HERE = os.path.dirname(os.path.abspath(__file__))
FONTS = os.path.join(HERE, "ProofFonts")
HOSTILE = os.path.join(HERE, "HostileFonts")
INTER = "/usr/share/fonts/truetype/inter-vf/Inter.var.ttf"
GARAMOND = "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Regular.otf"
GARAMOND_ITALIC = "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Italic.otf"

LETTERS = [ord(c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"]
PUNCTUATION = [ord(c) for c in " .,:;-()/&!?'>"]
# Catalan middle dot, Turkish dotless i, Romanian s with cedilla and comma, and the Cyrillic
# letters Serbian and Macedonian locl and EB Garamond's ss01 change (be, ve, ge, de, el, pe, te,
# sha, lje).
EXTRA = [0xB7, 0x131, 0x15F, 0x219] + [ord(c) for c in "бвгдлптшљ"]


def make_subset(source, unicodes, layout=True, drop=()):
    options = subset.Options()
    options.layout_features = ["*"] if layout else []
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables += list(drop)
    if not layout:
        options.layout_closure = False
        options.drop_tables += ["GSUB", "GPOS", "GDEF"]
    font = TTFont(source)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    return font


def rename(font, family):
    for record in font["name"].names:
        if record.nameID in (1, 16, 21):
            record.string = family
        elif record.nameID in (3, 4):
            record.string = family + " Regular"
        elif record.nameID in (6, 20):
            record.string = family.replace(" ", "") + "-Regular"
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [family.replace(" ", "") + "-Regular"]
        cff.topDictIndex[0].FamilyName = family
        cff.topDictIndex[0].FullName = family + " Regular"


def save(font, path):
    font.save(path)
    print(f"{path}: {os.path.getsize(path)} bytes")


def polygon(points):
    pen = TTGlyphPen(None)
    pen.moveTo(points[0])
    for point in points[1:]:
        pen.lineTo(point)
    pen.closePath()
    return pen.glyph()


def drawn_font(glyphs, cmap, family, mac=True):
    """A TrueType FontBuilder of `glyphs` (name: polygon points, None for an empty glyph), 600
    units wide each, mapped by `cmap`, family `family` (Regular), public domain."""
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(list(glyphs))
    fb.setupCharacterMap(cmap)
    fb.setupGlyf({n: polygon(p) if p else TTGlyphPen(None).glyph() for n, p in glyphs.items()})
    fb.setupHorizontalMetrics({n: (600, 100) for n in glyphs})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular",
                       "copyright": "Made for the fonti-batch tests; public domain (CC0)."},
                      mac=mac)
    fb.setupOS2()
    fb.setupPost()
    return fb


def make_copies(path):
    """A tiny font whose salt substitutes exact copies of glyphs and whose ss01 does not."""
    square = [(100, 0), (100, 500), (500, 500), (500, 0)]
    triangle = [(100, 0), (300, 700), (500, 0)]
    glyphs = {".notdef": square, "space": None, "a": square, "b": triangle,
              "a.copy": square, "b.copy": triangle, "b.alt": [(100, 700), (300, 0), (500, 700)]}
    fb = drawn_font(glyphs, {0x20: "space", 0x61: "a", 0x62: "b"}, "Proof Copies")
    addOpenTypeFeaturesFromString(fb.font, """
        languagesystem DFLT dflt; languagesystem latn dflt;
        feature salt { sub a by a.copy; sub b by b.copy; } salt;
        feature ss01 { sub b by b.alt; } ss01;
    """)
    fb.save(path)
    print(f"{path}: {os.path.getsize(path)} bytes")


def make_many_axes(source, path):
    """An fvar with far more axes than any real font (the reader keeps the first 64)."""
    from fontTools.ttLib.tables._f_v_a_r import Axis, NamedInstance, table__f_v_a_r
    font = TTFont(source)
    fvar = table__f_v_a_r()
    name = font["name"]
    for i in range(300):
        axis = Axis()
        axis.axisTag = f"A{i:03d}"
        axis.minValue, axis.defaultValue, axis.maxValue = 0.0, float(i), 1000.0
        axis.axisNameID = name.addName(f"Axis {i}")
        fvar.axes.append(axis)
    for n in range(3):
        instance = NamedInstance()
        instance.subfamilyNameID = name.addName(f"Instance {n}")
        instance.coordinates = {a.axisTag: float(n) for a in fvar.axes}
        fvar.instances.append(instance)
    font["fvar"] = fvar
    font.save(path)
    print(f"{path}: {os.path.getsize(path)} bytes")


def main():
    os.makedirs(HOSTILE, exist_ok=True)
    # The variable font: Basic Latin plus a few characters, every feature.
    inter = make_subset(INTER, LETTERS + [ord(c) for c in " .,:-()/"] + [0xDF])
    inter_path = os.path.join(FONTS, "InterVariable-Subset.ttf")
    save(inter, inter_path)

    save(make_subset(GARAMOND, LETTERS + PUNCTUATION + EXTRA),
         os.path.join(FONTS, "EBGaramond12-Subset.otf"))
    save(make_subset(GARAMOND_ITALIC, LETTERS + PUNCTUATION),
         os.path.join(FONTS, "EBGaramond12-Italic-Subset.otf"))
    plain = make_subset(GARAMOND, LETTERS + PUNCTUATION, layout=False)
    rename(plain, "EB Garamond No Layout")
    save(plain, os.path.join(FONTS, "EBGaramondNoLayout.otf"))
    make_copies(os.path.join(FONTS, "ProofCopies.ttf"))

    # Hostile fonts, from a small Inter subset.
    data = open(inter_path, "rb").read()
    with open(os.path.join(HOSTILE, "truncated.ttf"), "wb") as f:
        f.write(data[:6000])
    rng = random.Random(16)
    with open(os.path.join(HOSTILE, "random.ttf"), "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(4096)))

    small = [ord(c) for c in "AGIQRabcdefghijklmnopqrstuvwxyz0123456789"]
    huge = make_subset(INTER, small)
    evil = ("\u202eEvil\x1b[31m\x07\n\t" + "x" * 97 + "\u2066") * 100  # 11,200 characters
    fvar = huge["fvar"]
    for nid in [1, 16, fvar.axes[0].axisNameID, fvar.instances[0].subfamilyNameID, 256]:
        huge["name"].setName(evil, nid, 3, 1, 0x409)
    save(huge, os.path.join(HOSTILE, "huge-names.ttf"))

    empty = make_subset(INTER, small)
    gsub = empty["GSUB"].table
    gsub.ScriptList.ScriptRecord = []
    gsub.ScriptList.ScriptCount = 0
    gsub.FeatureList.FeatureRecord = []
    gsub.FeatureList.FeatureCount = 0
    gsub.LookupList.Lookup = []
    gsub.LookupList.LookupCount = 0
    gsub.FeatureVariations = None
    save(empty, os.path.join(HOSTILE, "empty-gsub.ttf"))

    broken = make_subset(INTER, small)
    for record in broken["GSUB"].table.FeatureList.FeatureRecord:
        record.Feature.LookupListIndex = [9999, 65535]
        record.Feature.LookupCount = 2
    axis = broken["fvar"].axes[0]
    axis.minValue, axis.defaultValue, axis.maxValue = 900.0, 100.0, 50.0
    broken["fvar"].instances[1].subfamilyNameID = 32000
    save(broken, os.path.join(HOSTILE, "broken-layout.ttf"))
    make_many_axes(os.path.join(FONTS, "ProofCopies.ttf"), os.path.join(HOSTILE, "many-axes.ttf"))


if __name__ == "__main__":
    main()
