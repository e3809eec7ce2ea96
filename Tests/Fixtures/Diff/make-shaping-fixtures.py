#!/usr/bin/python3
"""Makes the shaping fixtures of the `diff` tests once, from EB Garamond (SIL OFL 1.1, as Debian
ships it); the fonts are committed.

    /usr/bin/python3 make-shaping-fixtures.py   (needs python3-fonttools, fonts-ebgaramond;
                                                 writes beside this script)

README.md lists every change a fixture carries; the tests expect exactly those.
The product and the tests never run this script.
"""
import importlib.util
import os
import shutil
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables import otTables
from fontTools.ttLib.tables._k_e_r_n import KernTable_format_0, table__k_e_r_n

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fixtures", os.path.join(HERE, "make-fixtures.py"))
fixtures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixtures)

REGULAR = "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Regular.otf"
ITALIC = "/usr/share/fonts/opentype/ebgaramond/EBGaramond12-Italic.otf"
CHARACTERS = list(range(0x20, 0x7F)) + [0x300, 0x301, 0x308]
FEATURES = ["kern", "liga", "smcp", "calt", "mark", "mkmk"]


def out(*parts):
    return fixtures.out(*parts)


def shaping_font(source, style, features=FEATURES):
    font = fixtures.subsetted(source, features, unicodes=CHARACTERS)
    fixtures.rename(font, "Fixture Shaping", style)
    return font


def lookup(font, table, index):
    return font[table].table.LookupList.Lookup[index]


def kern_pair_lookup(font):
    """The PairPos lookup of `kern` (format 1 and format 2 subtables)."""
    gpos = font["GPOS"].table
    for record in gpos.FeatureList.FeatureRecord:
        if record.FeatureTag == "kern":
            for index in record.Feature.LookupListIndex:
                if gpos.LookupList.Lookup[index].LookupType == 2:
                    return gpos.LookupList.Lookup[index]
    raise SystemExit("no kern pair lookup")


def feature_lookups(font, table, tag, kind):
    t = font[table].table
    found = []
    for record in t.FeatureList.FeatureRecord:
        if record.FeatureTag == tag:
            for index in record.Feature.LookupListIndex:
                if t.LookupList.Lookup[index].LookupType == kind and index not in found:
                    found.append(index)
    return found


def legacy_kern(pairs):
    kern = table__k_e_r_n()
    kern.version = 0
    subtable = KernTable_format_0()
    subtable.version = 0
    subtable.coverage = 1
    subtable.format = 0
    subtable.kernTable = dict(pairs)
    kern.kernTables = [subtable]
    return kern


LEGACY_PAIRS = {("A", "V"): -80, ("T", "o"): -60, ("L", "T"): -70, ("V", "a"): -50}


def legacy_font(pairs):
    font = fixtures.subsetted(REGULAR, [], unicodes=list(range(0x20, 0x7F)))
    fixtures.rename(font, "Fixture Legacy Kern")
    for tag in ("GPOS", "GSUB"):
        if tag in font:
            del font[tag]
    font["kern"] = legacy_kern(pairs)
    return font


def before():
    shaping_font(REGULAR, "Regular").save(out("shaping-before", "FixtureShaping-Regular.otf"))
    shaping_font(ITALIC, "Italic").save(out("shaping-before", "FixtureShaping-Italic.otf"))
    legacy_font(LEGACY_PAIRS).save(out("shaping-before", "FixtureLegacyKern-Regular.otf"))


def after():
    font = TTFont(out("shaping-before", "FixtureShaping-Regular.otf"))
    pairs = kern_pair_lookup(font)
    first, classes = pairs.SubTable[0], pairs.SubTable[1]
    assert first.Format == 1 and classes.Format == 2
    # A class pair: T's class against o's class, tightened by 150 units (-105 → -255).
    c1 = classes.ClassDef1.classDefs["T"]
    c2 = classes.ClassDef2.classDefs["o"]
    value = classes.Class1Record[c1].Class2Record[c2].Value1
    assert value.XAdvance == -105, value.XAdvance
    value.XAdvance -= 150
    # A glyph pair: g j, 25 → -25.
    pair_set = first.PairSet[first.Coverage.glyphs.index("g")]
    record = next(r for r in pair_set.PairValueRecord if r.SecondGlyph == "j")
    assert record.Value1.XAdvance == 25
    record.Value1.XAdvance = -25
    # The ligature Q y retargeted: Q_y → Q.long.
    (liga,) = [i for i in feature_lookups(font, "GSUB", "liga", 4)]
    for subtable in lookup(font, "GSUB", liga).SubTable:
        for ligature in subtable.ligatures.get("Q", []):
            if ligature.Component == ["y"]:
                ligature.LigGlyph = "Q.long"
    # A contextual alternate changed: the hyphen between capitals (calt, hyphen.cap) no longer
    # follows H.
    for index in feature_lookups(font, "GSUB", "calt", 6):
        for subtable in lookup(font, "GSUB", index).SubTable:
            if [c.glyphs for c in subtable.InputCoverage] == [["hyphen"]]:
                coverage = subtable.BacktrackCoverage[0]
                coverage.glyphs = [g for g in coverage.glyphs if g != "H"]
    # A mark anchor moved: the top anchor of a (mark, MarkBasePos) 60 units up.
    (mark,) = feature_lookups(font, "GPOS", "mark", 4)
    subtable = lookup(font, "GPOS", mark).SubTable[0]
    base = subtable.BaseArray.BaseRecord[subtable.BaseCoverage.glyphs.index("a")]
    base.BaseAnchor[0].YCoordinate += 60
    font.save(out("shaping-after", "FixtureShaping-Regular.otf"))

    # A feature removed from one face: the italic without smcp (the regular keeps it).
    italic = shaping_font(ITALIC, "Italic", [f for f in FEATURES if f != "smcp"])
    italic.save(out("shaping-after", "FixtureShaping-Italic.otf"))

    # The legacy kern table: A V -80 → -120.
    changed = dict(LEGACY_PAIRS)
    changed[("A", "V")] = -120
    legacy_font(changed).save(out("shaping-after", "FixtureLegacyKern-Regular.otf"))


def resaved():
    """Each BEFORE font loaded and saved again by fontTools with its tables in reverse order:
    other bytes, the same tables."""
    for name in sorted(os.listdir(out("shaping-before"))):
        font = TTFont(out("shaping-before", name))
        tags = [t for t in font.reader.keys() if t != "GlyphOrder"]
        for tag in tags:
            font[tag]  # decompile
        copy = TTFont(sfntVersion=font.sfntVersion)
        copy.setGlyphOrder(font.getGlyphOrder())
        for tag in reversed(tags):
            copy[tag] = font[tag]
        copy.save(out("shaping-resaved", name), reorderTables=False)


def unused_lookup():
    """The regular BEFORE face with one GPOS lookup no feature uses: the table's bytes differ,
    nothing shapes differently. The other fonts are copied as they are."""
    for name in sorted(os.listdir(out("shaping-before"))):
        shutil.copy(out("shaping-before", name), out("shaping-unused", name))
    font = TTFont(out("shaping-before", "FixtureShaping-Regular.otf"))
    gpos = font["GPOS"].table
    extra = otTables.Lookup()
    extra.LookupType = 1
    extra.LookupFlag = 0
    single = otTables.SinglePos()
    single.Format = 1
    single.Coverage = otTables.Coverage()
    single.Coverage.glyphs = ["A"]
    single.ValueFormat = 4
    from fontTools.ttLib.tables.otBase import ValueRecord
    single.Value = ValueRecord()
    single.Value.XAdvance = 500
    extra.SubTable = [single]
    extra.SubTableCount = 1
    gpos.LookupList.Lookup.append(extra)
    gpos.LookupList.LookupCount = len(gpos.LookupList.Lookup)
    font.save(out("shaping-unused", "FixtureShaping-Regular.otf"))


DEVANAGARI = "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf"
DEVANAGARI_TEXT = "कखगघचजटडतदनपबमयरलवशषसहािीुूेैोौंः़्क्ष"


def devanagari():
    """Noto Sans Devanagari (SIL OFL 1.1), the consonants, vowel signs, virama and anusvara
    above, with every feature; renamed Fixture Devanagari. The AFTER copy has exactly: the akhn
    conjunct क्ष retargeted (kassadeva → kadeva), the anusvara's anchor on क 50 units higher
    (abvm), and the dist pair of क's half form and क (क्क) 30 units tighter (−64 → −94)."""
    from fontTools import subset
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.hinting = False
    options.notdef_outline = True
    options.glyph_names = True
    font = TTFont(DEVANAGARI)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=DEVANAGARI_TEXT)
    subsetter.subset(font)
    fixtures.rename(font, "Fixture Devanagari")
    font.save(out("deva-before", "FixtureDevanagari-Regular.ttf"))

    font = TTFont(out("deva-before", "FixtureDevanagari-Regular.ttf"))
    (akhn,) = feature_lookups(font, "GSUB", "akhn", 4)
    for subtable in lookup(font, "GSUB", akhn).SubTable:
        for ligature in subtable.ligatures.get("kadeva", []):
            if ligature.Component == ["viramadeva", "ssadeva"]:
                ligature.LigGlyph = "kadeva"
    (abvm,) = feature_lookups(font, "GPOS", "abvm", 4)
    subtable = lookup(font, "GPOS", abvm).SubTable[0]
    base = subtable.BaseArray.BaseRecord[subtable.BaseCoverage.glyphs.index("kadeva")]
    base.BaseAnchor[0].YCoordinate += 50
    (dist,) = feature_lookups(font, "GPOS", "dist", 2)
    subtable = lookup(font, "GPOS", dist).SubTable[0]
    assert subtable.Format == 1
    pair_set = subtable.PairSet[subtable.Coverage.glyphs.index("kaprehalfdeva")]
    record = next(r for r in pair_set.PairValueRecord if r.SecondGlyph == "kadeva")
    assert record.Value1.XAdvance == -64
    record.Value1.XAdvance -= 30
    font.save(out("deva-after", "FixtureDevanagari-Regular.ttf"))


def added_instance():
    """`variable/` (Fixture Sans VF) with one named instance added: "Heavy" at wght 850."""
    from fontTools.ttLib.tables._f_v_a_r import NamedInstance
    font = TTFont(out("variable", "FixtureSansVF.ttf"))
    name_id = font["name"].addMultilingualName({"en": "Heavy"}, font)
    instance = NamedInstance()
    instance.subfamilyNameID = name_id
    instance.coordinates = {"wght": 850}
    font["fvar"].instances.append(instance)
    font.save(out("variable-added-instance", "FixtureSansVF.ttf"))


def advance_only():
    """The regular BEFORE face with exactly the advances of a and T 40 units wider (their
    drawings, kerning and anchors as they were): a and its marks (á), T and its class pairs
    (To), reported as two glyphs and nothing else. The other fonts are copied as they are."""
    for name in sorted(os.listdir(out("shaping-before"))):
        shutil.copy(out("shaping-before", name), out("shaping-advance", name))
    font = TTFont(out("shaping-before", "FixtureShaping-Regular.otf"))
    metrics = font["hmtx"].metrics
    for glyph in ("a", "T"):
        width, lsb = metrics[glyph]
        metrics[glyph] = (width + 40, lsb)
    font.save(out("shaping-advance", "FixtureShaping-Regular.otf"))


if __name__ == "__main__":
    before()
    after()
    resaved()
    unused_lookup()
    devanagari()
    added_instance()
    advance_only()
