#!/usr/bin/python3
# Makes the layout reader's fixtures once (run by hand, never by the tests), with fontTools:
#
#   LayoutRules.ttf     a tiny font whose GSUB and GPOS hold every lookup type feaLib writes
#                       (rules in FEATURES below), lookup flags, a mark filtering set, GDEF classes
#   LayoutRepacked.ttf  the same rules packed otherwise: every lookup in extension subtables,
#                       class kerning enumerated as glyph pairs (PairPos format 1), the single
#                       substitution and the glyph pairs split into two subtables each, every
#                       coverage table of format 2
#   LayoutChanged.ttf   LayoutRules with one rule changed: calt's backtrack [c d] -> [c]
#   DejaVuSerif-resaved.GSUB/.GPOS/.GDEF
#                       ../Fonts/DejaVuSerif.ttf's layout tables (built by FontForge) decompiled
#                       and compiled again by fontTools: other bytes, the same rules
#
# Licence: the drawn fonts are made for these tests, public domain (CC0). The DejaVu tables are
# DejaVu Serif's (Bitstream Vera licence with the DejaVu changes, ../Fonts/licences/DejaVu.txt).
import os

from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables import otTables

HERE = os.path.dirname(os.path.abspath(__file__))
GLYPHS = [".notdef", "a", "b", "c", "d", "e", "f", "i", "x", "y", "a.sc", "b.sc", "a.alt1",
          "a.alt2", "f_i", "f_f_i", "grave", "acute"]
CMAP = {ord(c): c for c in "abcdefixy"}
CMAP.update({0x300: "grave", 0x301: "acute"})

FEATURES = """
languagesystem DFLT dflt;
languagesystem latn dflt;
languagesystem latn TRK;

table GDEF {
  GlyphClassDef [a b c d e f i x y a.sc b.sc a.alt1 a.alt2], [f_i f_f_i], [grave acute], ;
} GDEF;

lookup SUB_E { sub e by x; } SUB_E;
lookup MOVE_Y { pos y 40; } MOVE_Y;

feature smcp { SPLIT_SINGLE } smcp;
feature ccmp { sub c by c d; } ccmp;
feature salt { sub a from [a.alt1 a.alt2]; } salt;
feature liga {
  lookupflag UseMarkFilteringSet [grave];
  sub f f i by f_f_i;
  sub f i by f_i;
} liga;
feature calt { sub [c d] e' lookup SUB_E y; } calt;
feature ss01 { rsub a' b by a.alt2; } ss01;
feature cpsp { pos [a b] <5 0 10 0>; } cpsp;
feature kern {
  lookupflag IgnoreMarks;
  SPLIT_PAIRS
  @L = [c d];
  @R = [e x];
  CLASS_PAIRS
} kern;
feature curs {
  pos cursive x <anchor 0 100> <anchor 500 100>;
  pos cursive y <anchor 0 120> <anchor NULL>;
} curs;
markClass grave <anchor 250 500> @TOP;
markClass acute <anchor 260 520> @TOP;
feature mark {
  pos base [a b] <anchor 250 600> mark @TOP;
  pos ligature f_i <anchor 150 700> mark @TOP ligComponent <anchor 450 700> mark @TOP;
} mark;
feature mkmk { pos mark grave <anchor 250 800> mark @TOP; } mkmk;
feature dist { pos a y' lookup MOVE_Y; } dist;
"""

BASE = {
    "SPLIT_SINGLE": "sub a by a.sc; sub b by b.sc;",
    "SPLIT_PAIRS": "pos a b -30; pos b a -20;",
    "CLASS_PAIRS": "pos @L @R -50;",
}
REPACKED = {
    "SPLIT_SINGLE": "sub a by a.sc; subtable; sub b by b.sc;",
    "SPLIT_PAIRS": "pos a b -30; subtable; pos b a -20;",
    "CLASS_PAIRS": "enum pos @L @R -50;",
}


def glyph(width=600, box=True):
    pen = TTGlyphPen(None)
    if box:
        pen.moveTo((50, 0))
        pen.lineTo((50, 500))
        pen.lineTo((width - 50, 500))
        pen.lineTo((width - 50, 0))
        pen.closePath()
    return pen.glyph()


def font(features, family):
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(GLYPHS)
    fb.setupCharacterMap(CMAP)
    fb.setupGlyf({name: glyph(box=name != ".notdef") for name in GLYPHS})
    fb.setupHorizontalMetrics({name: (600, 50) for name in GLYPHS})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": "Regular",
                       "copyright": "Made for fonti-batch's tests; public domain (CC0)"})
    fb.setupOS2()
    fb.setupPost()
    addOpenTypeFeaturesFromString(fb.font, features)
    return fb.font


def features(parts):
    text = FEATURES
    for key, value in parts.items():
        text = text.replace(key, value)
    return text


def to_extension(f):
    """Every lookup's subtables wrapped in extension subtables."""
    for tag, kind in (("GSUB", 7), ("GPOS", 9)):
        for lookup in f[tag].table.LookupList.Lookup:
            wrapped = []
            for subtable in lookup.SubTable:
                ext = otTables.ExtensionSubst() if tag == "GSUB" else otTables.ExtensionPos()
                ext.Format = 1
                ext.ExtensionLookupType = lookup.LookupType
                ext.ExtSubTable = subtable
                wrapped.append(ext)
            lookup.SubTable = wrapped
            lookup.LookupType = kind
    return f


def save(f, name):
    f.save(os.path.join(HERE, name))


def format2_coverage(self, font):
    """Coverage.preWrite that always writes format 2 (ranges)."""
    glyphs = getattr(self, "glyphs", None) or []
    self.glyphs = glyphs
    ids = font.getGlyphIDMany(glyphs)
    if not glyphs or sorted(ids) != ids:
        return original_coverage(self, font)
    ranges = []
    for gid in ids:
        if ranges and gid == ranges[-1][1] + 1:
            ranges[-1][1] = gid
        else:
            ranges.append([gid, gid])
    records, index = [], 0
    for start, end in ranges:
        r = otTables.RangeRecord()
        r.Start, r.End, r.StartCoverageIndex = font.getGlyphName(start), font.getGlyphName(end), index
        index += end - start + 1
        records.append(r)
    self.Format = 2
    return {"RangeRecord": records}


original_coverage = otTables.Coverage.preWrite

save(font(features(BASE), "Layout Rules"), "LayoutRules.ttf")
save(font(features(BASE).replace("sub [c d] e'", "sub [c] e'"), "Layout Rules"), "LayoutChanged.ttf")
otTables.Coverage.preWrite = format2_coverage
save(to_extension(font(features(REPACKED), "Layout Rules")), "LayoutRepacked.ttf")
otTables.Coverage.preWrite = original_coverage

dejavu = TTFont(os.path.join(HERE, "..", "Fonts", "DejaVuSerif.ttf"))
for tag in ("GSUB", "GPOS", "GDEF"):
    table = dejavu[tag]
    table.ensureDecompiled()
    with open(os.path.join(HERE, f"DejaVuSerif-resaved.{tag}"), "wb") as out:
        out.write(table.compile(dejavu))
