#!/usr/bin/python3
"""Makes the `diff` corpus once: a pair of folders for every kind of change diff.json names
(docs/diff.md, "Changes and their kinds") and for every edit that is no change (#56, item 8);
the fonts are committed.

    /usr/bin/python3 make-corpus.py   (needs python3-fonttools; reads ../Fonts/DejaVuSerif.ttf,
                                       ../Fonts/DejaVuSerif-Bold.ttf, base/, shaping-before/
                                       and variable/; writes corpus/ beside this script)

Each pair is `corpus/<name>/before/` and `corpus/<name>/after/`. Every `before/` of one source
is the same bytes (git keeps them once); each `after/` is that font loaded and saved by fontTools
with exactly the one edit the pair is named after. `corpus/expected.tsv` says, for each pair,
the verdict `diff --exit-code` must reach and the exact set of kinds `changes` must hold (the
test `DiffCorpusTests` reads it), and `corpus/README.md` is written from the same table.
The product and the tests never run this script.
"""
import array
import copy
import importlib.util
import os
import shutil
import struct
import zlib

from fontTools import subset
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
from fontTools.otlLib.builder import buildStatTable
from fontTools.pens.recordingPen import RecordingPen
from fontTools.ttLib import TTFont, newTable
from fontTools.ttLib.tables import otTables
from fontTools.ttLib.tables.TupleVariation import TupleVariation
from fontTools.ttLib.tables.ttProgram import Program
from fontTools.varLib.models import VariationModel
from fontTools.varLib.varStore import OnlineVarStoreBuilder

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, file))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fixtures = load("fixtures", "make-fixtures.py")
shapes = load("shapes", "make-shape-fixtures.py")
shaping = load("shaping", "make-shaping-fixtures.py")

DEJAVU = os.path.join(HERE, "..", "Fonts", "DejaVuSerif.ttf")
PANGRAM = "Sphinx of black quartz, judge my vow."
# The sample's characters, so that the sample is set on both sides, and a few more that the
# edits touch away from it (R's outline, Q's advance, $ removed, the hyphen mapped again).
CHARACTERS = sorted({ord(c) for c in PANGRAM + " AHOQRTVy$-"})
LICENCES = {
    "serif": "DejaVu Serif: Bitstream Vera licence with the DejaVu changes, "
    "`../../Fonts/licences/DejaVu.txt`",
    "hinted": "DejaVu Serif: Bitstream Vera licence with the DejaVu changes, "
    "`../../Fonts/licences/DejaVu.txt`",
    "garamond": "EB Garamond 12: SIL Open Font License 1.1, `../../Fonts/licences/EBGaramond.txt`",
    "shaping": "EB Garamond 12: SIL Open Font License 1.1, `../../Fonts/licences/EBGaramond.txt`",
    "latin": "EB Garamond 12: SIL Open Font License 1.1, `../../Fonts/licences/EBGaramond.txt`",
    "sans": "Inter: SIL Open Font License 1.1, `../../Fonts/licences/Inter.txt`",
}
FILES = {
    "serif": "CorpusSerif-Regular.ttf",
    "hinted": "CorpusHinted-Regular.ttf",
    "garamond": "CorpusGaramond-Regular.otf",
    "shaping": "CorpusShaping-Regular.otf",
    "latin": "CorpusLatin-Regular.otf",
    "sans": "CorpusSansVF.ttf",
}
PAIRS = []  # (name, source, verdict, kinds, what, known failure or "")


# MARK: the sources


def cut(source, features, unicodes=CHARACTERS, hinting=False):
    font = TTFont(source)
    options = subset.Options()
    options.layout_features = features
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.name_languages = [0x409]
    options.hinting = hinting
    options.notdef_outline = True
    options.glyph_names = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    if "FFTM" in font:
        del font["FFTM"]
    return font


def source_path(source):
    return os.path.join(CORPUS, ".sources", FILES[source])


def save_source(source, font):
    path = source_path(source)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    font.save(path)
    TTFont(path).save(path)  # saved twice: a font loaded and saved again holds the same bytes


def sources():
    # Corpus Serif: DejaVu Serif, unhinted and without its MATH table; OS/2 made version 4 so
    # that the fields of versions 2 to 4 (x-height, cap height, default and break characters,
    # context) can change. Corpus Hinted: the same, hinted and with its MATH table.
    for source, hinting in (("serif", False), ("hinted", True)):
        serif = cut(DEJAVU, ["kern", "liga"], hinting=hinting)
        if not hinting:
            del serif["MATH"]
        fixtures.rename(serif, "Corpus Serif" if source == "serif" else "Corpus Hinted")
        os2 = serif["OS/2"]
        os2.version = 4
        os2.sxHeight, os2.sCapHeight = 1063, 1493
        os2.usDefaultChar, os2.usBreakChar, os2.usMaxContext = 0, 32, 2
        save_source(source, serif)

    garamond = cut(fixtures.out("base", "FixtureGaramond-Regular.otf"), ["kern"])
    fixtures.rename(garamond, "Corpus Garamond")
    save_source("garamond", garamond)

    chars = CHARACTERS + [ord(c) for c in "fiLgj"] + [0x301]
    regular = shaping.out("shaping-before", "FixtureShaping-Regular.otf")
    shaped = cut(regular, shaping.FEATURES, unicodes=chars)
    fixtures.rename(shaped, "Corpus Shaping")
    save_source("shaping", shaped)

    latin = cut(fixtures.out("base", "FixtureGaramond-Regular.otf"), [],
                unicodes=fixtures.BASIC_LATIN)
    fixtures.rename(latin, "Corpus Latin")
    save_source("latin", latin)

    sans = cut(fixtures.out("variable", "FixtureSansVF.ttf"), ["kern"])
    for record in sans["name"].names:
        if record.nameID in (1, 4, 16):
            record.string = "Corpus Sans VF"
        elif record.nameID == 6:
            record.string = "CorpusSansVF"
        elif record.nameID == 3:
            record.string = "CorpusSansVF (fonti-batch test corpus)"
    save_source("sans", sans)


# MARK: pairs


def pair_folder(name, side, *rest):
    path = os.path.join(CORPUS, name, side, *rest)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def opened(source):
    return TTFont(source_path(source))


def pair(name, source, kinds, what, after=None, before=None, known="", save=None,
         undone=False):
    """A pair: `before/` the source (or the source with `before` applied), `after/` the source
    with `before` and then `after` applied, or, `undone`, the source itself (`before` undone).
    `kinds` empty: a no-op, `diff` must say unchanged."""
    file = FILES[source]
    if before is None:
        shutil.copy(source_path(source), pair_folder(name, "before", file))
    else:
        font = opened(source)
        before(font)
        font.save(pair_folder(name, "before", file))
    font = TTFont(source_path(source) if undone else pair_folder(name, "before", file))
    if after is not None:
        after(font)
    if save is not None:
        save(font, name, file)
    else:
        font.save(pair_folder(name, "after", file))
    verdict = "changed" if kinds else "unchanged"
    PAIRS.append((name, source, verdict, sorted(kinds), what, known))


def unicode_cmaps(font):
    return [t for t in font["cmap"].tables if t.isUnicode()]


def name_record(font, name_id, text):
    for record in font["name"].names:
        if record.nameID == name_id:
            record.string = text


def set_attr(table, **values):
    def change(font):
        for key, value in values.items():
            setattr(font[table], key, value)
    return change


def glyph_named(font, char):
    return font.getBestCmap()[ord(char)]


# MARK: outlines, characters, metrics


def move_r(font):
    shapes.move_point(font, "R", 0, 3, 20)


def wider_q(font):
    advance, lsb = font["hmtx"]["Q"]
    font["hmtx"]["Q"] = (advance + 80, lsb)


def hyphen_added(font):
    for table in unicode_cmaps(font):
        table.cmap[0x2010] = "hyphen"


def dollar_removed(font):
    for table in unicode_cmaps(font):
        table.cmap.pop(0x24, None)


def variation_sequence(font):
    from fontTools.ttLib.tables._c_m_a_p import cmap_format_14
    table = cmap_format_14(14)
    table.platformID, table.platEncID, table.language = 0, 5, 0xFF
    table.cmap = {}
    table.uvsDict = {0xFE00: [(ord("A"), None)]}
    font["cmap"].tables.append(table)


def glyph_added(font):
    order = font.getGlyphOrder() + ["A.alt"]
    glyf = font["glyf"]
    glyf.glyphs["A.alt"] = copy.deepcopy(glyf["A"])
    glyf.glyphs["A.alt"].program = Program()
    glyf.glyphs["A.alt"].program.fromBytecode(b"")
    font["hmtx"]["A.alt"] = font["hmtx"]["A"]
    font.setGlyphOrder(order)
    glyf.glyphOrder = order
    font["maxp"].numGlyphs = len(order)
    font["post"].extraNames = []  # rebuilt from the glyph order


def units_per_em(font):
    from fontTools.ttLib.scaleUpem import scale_upem
    scale_upem(font, 1000)


# MARK: OS/2


def os2(**values):
    return set_attr("OS/2", **values)


def os2_flag(field, value):
    def change(font):
        setattr(font["OS/2"], field, value)
    return change


def panose(font):
    font["OS/2"].panose.bWeight = 8


def unicode_ranges(font):
    font["OS/2"].ulUnicodeRange2 |= 1 << 0  # bit 32: Combining Diacritical Marks


def code_pages(font):
    font["OS/2"].ulCodePageRange1 |= 1 << 5  # Hebrew


def char_index(font):
    """usLastCharIndex patched in the table's bytes: fontTools sets it from the cmap on save."""
    from fontTools.ttLib.tables.DefaultTable import DefaultTable
    data = bytearray(font.reader["OS/2"])
    data[66:68] = struct.pack(">H", 0x7E)
    table = DefaultTable("OS/2")
    table.data = bytes(data)
    font["OS/2"] = table


def optical_before(font):
    os2 = font["OS/2"]
    os2.version = 5
    os2.usLowerOpticalPointSize, os2.usUpperOpticalPointSize = 160, 480


# MARK: colour, bitmaps


def colour_font(palette, second_layer=True, colr=True):
    """COLR version 0 (a, b, o, p, q, each painted with itself; o also with O), and CPAL;
    without `colr`, CPAL alone."""
    def change(font):
        from fontTools.colorLib.builder import buildCOLR, buildCPAL
        layers = {}
        for name in ("a", "b", "o", "p", "q"):
            layers[name] = [(name, 0)] + ([("O", 1)] if name == "o" and second_layer else [])
        if colr:
            font["COLR"] = buildCOLR(layers, version=0)
        font["CPAL"] = buildCPAL([palette])
    return change


def colour_paints(alpha):
    """COLR version 1: o painted with itself in palette entry 0 at `alpha`, and CPAL."""
    def change(font):
        from fontTools.colorLib.builder import buildCOLR, buildCPAL
        paint = {"Format": 10, "Glyph": "o",
                 "Paint": {"Format": 2, "PaletteIndex": 0, "Alpha": alpha}}
        font["COLR"] = buildCOLR({"o": paint}, version=1,
                                 glyphMap=font.getReverseGlyphMap())
        font["CPAL"] = buildCPAL([[RED, GREY]])
    return change


RED, BLUE, GREY = (0.8, 0.1, 0.1, 1.0), (0.1, 0.2, 0.8, 1.0), (0.5, 0.5, 0.5, 1.0)


def svg(colour):
    def change(font):
        gid = font.getGlyphID("o")
        document = (f'<svg xmlns="http://www.w3.org/2000/svg" id="glyph{gid}">'
                    f'<circle cx="250" cy="-250" r="200" fill="{colour}"/></svg>')
        table = newTable("SVG ")
        table.docList = [(document, gid, gid)]
        font["SVG "] = table
    return change


def png(grey):
    """A 2 × 2 grey PNG."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    rows = b"".join(b"\x00" + bytes([grey, grey]) for _ in range(2))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def sbix(grey, ppems=(20,)):
    """sbix with a strike at each of `ppems` whose only image is o's, a 2 × 2 `grey` PNG."""
    def change(font):
        from fontTools.ttLib.tables.sbixGlyph import Glyph
        from fontTools.ttLib.tables.sbixStrike import Strike
        table = newTable("sbix")
        table.version, table.flags = 1, 1
        table.strikes = {}
        for ppem in ppems:
            strike = Strike(ppem=ppem, resolution=72)
            for name in font.getGlyphOrder():
                strike.glyphs[name] = Glyph(glyphName=name)
            strike.glyphs["o"] = Glyph(glyphName="o", graphicType="png ", imageData=png(grey),
                                       originOffsetX=0, originOffsetY=0)
            table.strikes[ppem] = strike
        font["sbix"] = table
    return change


def bitmap_xml(prefix, gid, row, ascender=6):
    """EBLC/EBDT (or CBLC/CBDT) of one strike at 8 ppem holding one glyph, `o`, as ttx
    writes them; `row` is its image (format 1 bitmap rows, or a PNG for format 17);
    `ascender` the strike's line metrics' ascender."""
    if prefix == "C":
        glyph = (f'<cbdt_bitmap_format_17 name="o"><SmallGlyphMetrics><height value="2"/>'
                 f'<width value="2"/><BearingX value="0"/><BearingY value="2"/>'
                 f'<Advance value="3"/></SmallGlyphMetrics>'
                 f'<rawimagedata>{row.hex()}</rawimagedata></cbdt_bitmap_format_17>')
        image_format, version = 17, "3.0"
    else:
        glyph = (f'<ebdt_bitmap_format_1 name="o"><SmallGlyphMetrics><height value="2"/>'
                 f'<width value="2"/><BearingX value="0"/><BearingY value="2"/>'
                 f'<Advance value="3"/></SmallGlyphMetrics>'
                 f'<rawimagedata>{row.hex()}</rawimagedata></ebdt_bitmap_format_1>')
        image_format, version = 1, "2.0"
    metrics = "".join(
        f'<sbitLineMetrics direction="{d}"><ascender value="{ascender}"/><descender value="-2"/>'
        '<widthMax value="4"/><caretSlopeNumerator value="0"/>'
        '<caretSlopeDenominator value="0"/><caretOffset value="0"/>'
        '<minOriginSB value="0"/><minAdvanceSB value="0"/><maxBeforeBL value="0"/>'
        '<minAfterBL value="0"/><pad1 value="0"/><pad2 value="0"/></sbitLineMetrics>'
        for d in ("hori", "vert"))
    location = (
        f'<{prefix}BLC><header version="{version}"/><strike index="0"><bitmapSizeTable>'
        f'{metrics}<colorRef value="0"/><startGlyphIndex value="{gid}"/>'
        f'<endGlyphIndex value="{gid}"/><ppemX value="8"/><ppemY value="8"/>'
        '<bitDepth value="1"/><flags value="1"/></bitmapSizeTable>'
        f'<eblc_index_sub_table_1 imageFormat="{image_format}" firstGlyphIndex="{gid}" '
        f'lastGlyphIndex="{gid}"><glyphLoc id="{gid}" name="o"/></eblc_index_sub_table_1>'
        f'</strike></{prefix}BLC>')
    data = (f'<{prefix}BDT><header version="{version}"/><strikedata index="0">{glyph}'
            f'</strikedata></{prefix}BDT>')
    return location, data


def bitmaps(prefix, row, ascender=6):
    def change(font):
        import io
        location, data = bitmap_xml(prefix, font.getGlyphID("o"), row, ascender)
        xml = f'<?xml version="1.0" encoding="UTF-8"?><ttFont>{location}{data}</ttFont>'
        font.importXML(io.StringIO(xml))
    return change


# MARK: hinting


def program(tag, extra):
    """Appends `extra` (bytecode that leaves the stack as it was) to the font program `tag`."""
    def change(font):
        table = font[tag]
        table.program.fromBytecode(table.program.getBytecode() + extra)
    return change


PUSH_POP = bytes([0xB0, 0x00, 0x21])  # PUSHB[0] 0, POP


def cvt(font):
    font["cvt "].values[0] += 10


def gasp(font):
    ranges = font["gasp"].gaspRange
    font["gasp"].gaspRange = {key: (0x0A if value != 0x0A else 0x0F)
                              for key, value in ranges.items()}


def hdmx(widths):
    def change(font):
        table = newTable("hdmx")
        table.hdmx = {12: {name: max(0, round(font["hmtx"][name][0] * 12 / 2048) + widths)
                           for name in font.getGlyphOrder()}}
        font["hdmx"] = table
    return change


def ltsh(pels):
    def change(font):
        table = newTable("LTSH")
        table.version = 0
        table.yPels = {name: pels for name in font.getGlyphOrder()}
        font["LTSH"] = table
    return change


def vdmx(y_max):
    def change(font):
        table = newTable("VDMX")
        table.version = 1
        table.ratRanges = [{"bCharSet": 1, "xRatio": 0, "yStartRatio": 0, "yEndRatio": 0,
                            "groupIndex": 0}]
        table.groups = [{12: (y_max, -3), 13: (y_max + 1, -3)}]
        table.numRecs, table.numRatios = 1, 1
        font["VDMX"] = table
    return change


def glyph_instructions(font):
    glyph = font["glyf"]["R"]
    glyph.program.fromBytecode(glyph.program.getBytecode() + PUSH_POP)


def maxp_limits(font):
    font["maxp"].maxStackElements += 16


def cff_hints(font):
    private = font["CFF "].cff.topDictIndex[0].Private
    private.BlueScale = 0.05


def cvar(deltas):
    def change(font):
        table = newTable("cvt ")
        table.values = array.array("h", [100, 200])
        font["cvt "] = table
        variations = newTable("cvar")
        variations.version = (1, 0)
        variations.variations = [TupleVariation({"wght": (0.0, 1.0, 1.0)}, deltas)]
        font["cvar"] = variations
    return change


# MARK: STAT, vertical, MATH, BASE, PCLT, unknown tables


def stat(values):
    def change(font):
        buildStatTable(font, [{"tag": "wght", "name": "Weight", "values": values}])
    return change


REGULAR_VALUE = {"value": 400, "name": "Regular", "flags": 0x2}
BOLD_VALUE = {"value": 700, "name": "Bold"}


def vertical(ascent=880, o_height=1000):
    def change(font):
        header = newTable("vhea")
        header.tableVersion = 0x00011000
        header.ascent, header.descent, header.lineGap = ascent, -120, 0
        header.advanceHeightMax = 1000
        header.minTopSideBearing = header.minBottomSideBearing = header.yMaxExtent = 0
        header.caretSlopeRise, header.caretSlopeRun, header.caretOffset = 0, 1, 0
        header.reserved1 = header.reserved2 = header.reserved3 = header.reserved4 = 0
        header.metricDataFormat = 0
        font["vhea"] = header
        metrics = newTable("vmtx")
        metrics.metrics = {name: (o_height if name == "o" else 1000, 0)
                           for name in font.getGlyphOrder()}
        font["vmtx"] = metrics
    return change


def vertical_origins(default):
    def change(font):
        table = newTable("VORG")
        table.majorVersion, table.minorVersion = 1, 0
        table.defaultVertOriginY = default
        table.VOriginRecords = {}
        font["VORG"] = table
    return change


def var_store(deltas):
    """A variation store of one region (wght at its maximum) holding `deltas`, and the
    indices of each."""
    builder = OnlineVarStoreBuilder(["wght"])
    builder.setModel(VariationModel([{}, {"wght": 1.0}]))
    indices = [builder.storeMasters([0, d])[1] for d in deltas]
    return builder.finish(), indices


def vertical_variations(delta):
    def change(font):
        vertical()(font)
        store, (index,) = var_store([delta])
        table = otTables.VVAR()
        table.Version = 0x00010000
        table.VarStore = store
        mapping = otTables.VarIdxMap()
        mapping.mapping = {name: index for name in font.getGlyphOrder()}
        table.AdvHeightMap = mapping
        table.TsbMap = table.BsbMap = table.VOrgMap = None
        wrapper = newTable("VVAR")
        wrapper.table = table
        font["VVAR"] = wrapper
    return change


def metric_variations(delta):
    def change(font):
        store, (index,) = var_store([delta])
        table = otTables.MVAR()
        table.Version = 0x00010000
        table.Reserved = 0
        table.ValueRecordSize = 8
        record = otTables.MetricsValueRecord()
        record.ValueTag = "xhgt"
        record.VarIdx = index
        table.ValueRecord = [record]
        table.ValueRecordCount = 1
        table.VarStore = store
        wrapper = newTable("MVAR")
        wrapper.table = table
        font["MVAR"] = wrapper
    return change


def math_constant(font):
    font["MATH"].table.MathConstants.AxisHeight.Value += 10


def math_glyphs(font):
    font["MATH"].table.MathVariants.MinConnectorOverlap += 10


def baselines(romn):
    def change(font):
        addOpenTypeFeaturesFromString(
            font, "table BASE { HorizAxis.BaseTagList ideo romn; "
            f"HorizAxis.BaseScriptList latn romn -120 {romn}; }} BASE;", tables=["BASE"])
    return change


def pclt(x_height):
    """A PCLT table (fontTools has no class for it: packed by hand, 54 bytes)."""
    def change(font):
        from fontTools.ttLib.tables.DefaultTable import DefaultTable
        table = DefaultTable("PCLT")
        table.data = struct.pack(
            ">IIHHHHHH16s8s6sbbBB", 0x00010000, 0x80000000, 600, x_height, 0, 0, 1493, 0,
            b"Corpus Serif", b"\xff" * 7 + b"\xfe", b"CORPUS", 0, 0, 0, 0)
        font["PCLT"] = table
    return change


def meta(languages):
    def change(font):
        table = newTable("meta")
        table.data = {"dlng": languages, "slng": languages}
        font["meta"] = table
    return change


# MARK: faces, axes, instances


def with_bold(font, name, file):
    """Saves `font` into `after/` with a Bold face beside it (the same outlines)."""
    font.save(pair_folder(name, "after", file))
    bold = TTFont(pair_folder(name, "after", file))
    bold_face(bold)
    bold.save(pair_folder(name, "after", file.replace("Regular", "Bold")))


def bold_face(font):
    fixtures.rename(font, "Corpus Serif", "Bold")
    font["OS/2"].usWeightClass = 700
    font["OS/2"].fsSelection = (font["OS/2"].fsSelection & ~0x40) | 0x20
    font["head"].macStyle |= 0x01


def bold_removed(font, name, file):
    """`before/` gets the Bold beside the Regular; `after/` the Regular alone."""
    font.save(pair_folder(name, "after", file))
    bold = TTFont(pair_folder(name, "after", file))
    bold_face(bold)
    bold.save(pair_folder(name, "before", file.replace("Regular", "Bold")))


def renamed_face(font):
    for record in font["name"].names:
        if record.nameID == 2:
            record.string = "Book"
        elif record.nameID in (4,):
            record.string = "Corpus Serif Book"
        elif record.nameID in (6,):
            record.string = "CorpusSerif-Book"


def axis_range(font):
    for axis in font["fvar"].axes:
        if axis.axisTag == "wght":
            axis.maxValue = 1000


def extra_axis(font):
    from fontTools.ttLib.tables._f_v_a_r import Axis
    axis = Axis()
    axis.axisTag, axis.minValue, axis.defaultValue, axis.maxValue = "XTRA", 0, 0, 100
    axis.flags = 0
    axis.axisNameID = font["name"].addMultilingualName({"en": "Extra"}, font, minNameID=256)
    font["fvar"].axes.append(axis)
    for instance in font["fvar"].instances:
        instance.coordinates["XTRA"] = 0


def heavy_instance(font):
    from fontTools.ttLib.tables._f_v_a_r import NamedInstance
    instance = NamedInstance()
    instance.subfamilyNameID = font["name"].addMultilingualName({"en": "Heavy"}, font,
                                                                minNameID=256)
    instance.coordinates = {"wght": 850}
    font["fvar"].instances.append(instance)


def bold_instance_moved(font):
    for instance in font["fvar"].instances:
        if instance.coordinates.get("wght") == 700:
            instance.coordinates["wght"] = 650


# MARK: shaping


def smcp_removed(font):
    gsub = font["GSUB"].table
    gsub.FeatureList.FeatureRecord = [r for r in gsub.FeatureList.FeatureRecord
                                      if r.FeatureTag != "smcp"]
    gsub.FeatureList.FeatureCount = len(gsub.FeatureList.FeatureRecord)
    for script in gsub.ScriptList.ScriptRecord:
        systems = [script.Script.DefaultLangSys] + [r.LangSys for r in
                                                    script.Script.LangSysRecord]
        for system in systems:
            if system is not None:
                system.FeatureIndex = list(range(gsub.FeatureList.FeatureCount))
                system.FeatureCount = gsub.FeatureList.FeatureCount


def liga_emptied(font):
    for record in font["GSUB"].table.FeatureList.FeatureRecord:
        if record.FeatureTag == "liga":
            record.Feature.LookupListIndex = []
            record.Feature.LookupCount = 0


def ligature_retargeted(font):
    (liga,) = shaping.feature_lookups(font, "GSUB", "liga", 4)
    for subtable in shaping.lookup(font, "GSUB", liga).SubTable:
        for ligature in subtable.ligatures.get("Q", []):
            if ligature.Component == ["y"]:
                ligature.LigGlyph = "Q.long"


def kerning(first, second, delta):
    def change(font):
        lookup = shaping.kern_pair_lookup(font)
        for subtable in lookup.SubTable:
            if subtable.Format == 2 and first in subtable.Coverage.glyphs:
                c1 = subtable.ClassDef1.classDefs.get(first, 0)
                c2 = subtable.ClassDef2.classDefs.get(second, 0)
                value = subtable.Class1Record[c1].Class2Record[c2].Value1
                if value is not None and getattr(value, "XAdvance", 0):
                    value.XAdvance += delta
                    return
            if subtable.Format == 1 and first in subtable.Coverage.glyphs:
                pair_set = subtable.PairSet[subtable.Coverage.glyphs.index(first)]
                for record in pair_set.PairValueRecord:
                    if record.SecondGlyph == second:
                        record.Value1.XAdvance += delta
                        return
        raise SystemExit(f"no kerning of {first} {second}")
    return change


def mark_moved(font):
    (mark,) = shaping.feature_lookups(font, "GPOS", "mark", 4)
    subtable = shaping.lookup(font, "GPOS", mark).SubTable[0]
    base = subtable.BaseArray.BaseRecord[subtable.BaseCoverage.glyphs.index("a")]
    base.BaseAnchor[0].YCoordinate += 60


def unused_lookup(font):
    from fontTools.ttLib.tables.otBase import ValueRecord
    gpos = font["GPOS"].table
    extra = otTables.Lookup()
    extra.LookupType, extra.LookupFlag = 1, 0
    single = otTables.SinglePos()
    single.Format = 1
    single.Coverage = otTables.Coverage()
    single.Coverage.glyphs = ["A"]
    single.ValueFormat = 4
    single.Value = ValueRecord()
    single.Value.XAdvance = 500
    extra.SubTable = [single]
    extra.SubTableCount = 1
    gpos.LookupList.Lookup.append(extra)
    gpos.LookupList.LookupCount = len(gpos.LookupList.Lookup)


def script_added(font):
    for tag in ("GSUB", "GPOS"):
        table = font[tag].table
        latin = next(r for r in table.ScriptList.ScriptRecord if r.ScriptTag == "latn")
        record = otTables.ScriptRecord()
        record.ScriptTag = "armn"
        record.Script = copy.deepcopy(latin.Script)
        table.ScriptList.ScriptRecord.append(record)
        table.ScriptList.ScriptRecord.sort(key=lambda r: r.ScriptTag)
        table.ScriptList.ScriptCount = len(table.ScriptList.ScriptRecord)


def language_system_added(font):
    for tag in ("GSUB", "GPOS"):
        table = font[tag].table
        latin = next(r for r in table.ScriptList.ScriptRecord if r.ScriptTag == "latn")
        records = [r for r in latin.Script.LangSysRecord if r.LangSysTag != "TRK "]
        record = otTables.LangSysRecord()
        record.LangSysTag = "TRK "
        record.LangSys = copy.deepcopy(latin.Script.DefaultLangSys)
        records.append(record)
        records.sort(key=lambda r: r.LangSysTag)
        latin.Script.LangSysRecord = records
        latin.Script.LangSysCount = len(records)


# MARK: layout rules (#58, item 4)


def context_without(input_glyphs, side, glyph):
    """`glyph` taken out of the first coverage of `side` (`BacktrackCoverage` or
    `LookAheadCoverage`) of the calt chain rule (format 3) whose input is `input_glyphs` and
    whose first such coverage holds it."""
    def change(font):
        for index in shaping.feature_lookups(font, "GSUB", "calt", 6):
            for subtable in shaping.lookup(font, "GSUB", index).SubTable:
                coverages = getattr(subtable, side)
                if ([c.glyphs for c in subtable.InputCoverage] == [input_glyphs] and coverages
                        and glyph in coverages[0].glyphs):
                    coverages[0].glyphs = [g for g in coverages[0].glyphs if g != glyph]
                    return
        raise SystemExit(f"no calt rule on {input_glyphs} with {glyph}")
    return change


def ligature_component(ligature, components):
    """The ligature `ligature` made of `components` (its first glyph kept)."""
    def change(font):
        for record in font["GSUB"].table.LookupList.Lookup:
            if record.LookupType != 4:
                continue
            for subtable in record.SubTable:
                for first, ligatures in subtable.ligatures.items():
                    for lig in ligatures:
                        if lig.LigGlyph == ligature:
                            lig.Component = list(components)
                            lig.CompCount = len(components) + 1
                            return
        raise SystemExit(f"no ligature {ligature}")
    return change


def liga_ignores_marks(font):
    """The ligature lookup of `liga` (Q y → Q_y) skips marks: Q + acute + y ligates too."""
    (liga,) = shaping.feature_lookups(font, "GSUB", "liga", 4)
    shaping.lookup(font, "GSUB", liga).LookupFlag = 0x0008  # IgnoreMarks


def glyph_class(glyph, value):
    def change(font):
        classes = font["GDEF"].table.GlyphClassDef.classDefs
        assert glyph in classes, glyph
        classes[glyph] = value
    return change


def mark_anchor_moved(font):
    """The acute's own anchor (the mark's, not a base's) 40 units right."""
    (mark,) = shaping.feature_lookups(font, "GPOS", "mark", 4)
    subtable = shaping.lookup(font, "GPOS", mark).SubTable[0]
    record = subtable.MarkArray.MarkRecord[subtable.MarkCoverage.glyphs.index("acutecomb")]
    record.MarkAnchor.XCoordinate += 40


def kerning_split(font):
    """The class-pair subtable of the kerning lookup split in two by its first glyphs (its
    coverage halved, its classes and values copied): a first glyph is covered by one of the
    two, so every pair applies as before."""
    lookup = shaping.kern_pair_lookup(font)
    (classes,) = [s for s in lookup.SubTable if s.Format == 2]
    at = lookup.SubTable.index(classes)
    glyphs = classes.Coverage.glyphs
    middle = len(glyphs) // 2
    halves = []
    for part in (glyphs[:middle], glyphs[middle:]):
        half = copy.deepcopy(classes)
        half.Coverage.glyphs = part
        halves.append(half)
    lookup.SubTable[at:at + 1] = halves
    lookup.SubTableCount = len(lookup.SubTable)


# The class pair V o of Corpus Sans VF's kerning, and the one instance its new delta reaches:
# wght 700 (normalized 0.6), by a region from 0.4 to 0.8 that ends at the instances beside it
# (600, 800) and at the default.
INSTANCE_REGION = {"wght": (0.4, 0.6, 0.8)}


def kern_at_instance(delta):
    """V o's class kerning takes its variations from a row of its own, of the region it had
    (wght 900) and the region of wght 700 alone: `delta` at 700, its default and every other
    instance as they were. Applied again, only the delta is set."""
    def change(font):
        from fontTools.varLib import builder
        store = font["GDEF"].table.VarStore
        (kern,) = [s.ExtSubTable for s in font["GPOS"].table.LookupList.Lookup[0].SubTable
                   if s.ExtSubTable.Format == 2]
        c1 = kern.ClassDef1.classDefs[glyph_named(font, "V")]
        c2 = kern.ClassDef2.classDefs[glyph_named(font, "o")]
        device = kern.Class1Record[c1].Class2Record[c2].Value1.XAdvDevice
        assert device.DeltaFormat == 0x8000, device.DeltaFormat
        data = store.VarData[device.StartSize]
        regions = store.VarRegionList.Region
        last = regions[data.VarRegionIndex[-1]].VarRegionAxis[0]
        if all(abs(a - b) < 1 / 8192 for a, b in zip(
                (last.StartCoord, last.PeakCoord, last.EndCoord), INSTANCE_REGION["wght"])):
            data.Item[device.EndSize][-1] = delta
            return
        assert len(data.VarRegionIndex) == 1, data.VarRegionIndex
        axes = [a.axisTag for a in font["fvar"].axes]
        regions.append(builder.buildVarRegion(INSTANCE_REGION, axes))
        store.VarRegionList.RegionCount = len(regions)
        row = [data.Item[device.EndSize][0], delta]
        store.VarData.append(builder.buildVarData(data.VarRegionIndex + [len(regions) - 1],
                                                  [row], optimize=False))
        store.VarDataCount = len(store.VarData)
        device.StartSize, device.EndSize = store.VarDataCount - 1, 0
    return change


# Fonts as released, compiled by FontForge, not by fontTools: their layout tables packed as
# FontForge packs them, which fontTools packs otherwise.
DEJAVU_BOLD = os.path.join(HERE, "..", "Fonts", "DejaVuSerif-Bold.ttf")


def released_pair(name, label, source, what, after, before=None):
    """A pair of its own source (`label` in the README): `before/` the font `source` as
    released (or as `before(source, path)` writes it), `after/` what `after(path of before,
    path of after)` writes."""
    file = os.path.basename(source)
    before_path = pair_folder(name, "before", file)
    if before is None:
        shutil.copy(source, before_path)
    else:
        before(source, before_path)
    after(before_path, pair_folder(name, "after", file))
    PAIRS.append((name, label, "unchanged", [], what, ""))


def resaved_fully(source, target):
    """Every table decompiled and compiled again by fontTools (`ensureDecompiled`), the
    timestamp recalculated; glyph bounding boxes kept as they were (see the README)."""
    font = TTFont(source, recalcBBoxes=False)
    font.ensureDecompiled()
    font.save(target)


def names_trimmed(source, target):
    """The font as released, its name records without the line ends and spaces that end two
    of them (which a ttx dump does not keep); every other table its released bytes."""
    from fontTools.ttLib.tables.DefaultTable import DefaultTable
    released = TTFont(source)
    names = released["name"]
    for record in names.names:
        record.string = record.toUnicode().rstrip()
    tables = {tag: released.reader[tag] for tag in released.reader.keys() if tag != "name"}
    tables["name"] = names.compile(released)
    trimmed = TTFont(sfntVersion=released.sfntVersion, recalcBBoxes=False,
                     recalcTimestamp=False)
    for tag, data in tables.items():
        table = DefaultTable(tag)
        table.data = data
        trimmed[tag] = table
    trimmed.save(target)


def ttx_round_trip(source, target):
    """`ttx -b` (keep the bounding boxes) to XML, and `ttx -b` back to a font, its modified
    date kept (`ttx` would take the XML file's, which differs every run)."""
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        dump = os.path.join(folder, "font.ttx")
        for arguments in (["-o", dump, source],
                          ["--no-recalc-timestamp", "-o", target, dump]):
            subprocess.run(["/usr/bin/python3", "-m", "fontTools.ttx", "-q", "-b"] + arguments,
                           check=True)


# MARK: languages


GERMAN = {0xC4: "A", 0xD6: "O", 0xDC: "U", 0xE4: "a", 0xF6: "o", 0xFC: "u", 0xDF: "s"}


def mapped(chars):
    def change(font):
        for table in unicode_cmaps(font):
            table.cmap.update({c: GERMAN[c] for c in chars})
    return change


def unmapped(chars):
    def change(font):
        for table in unicode_cmaps(font):
            for c in chars:
                table.cmap.pop(c, None)
    return change


# MARK: no-ops


def resave(font):
    pass


def rotate_all(font):
    for char in "ASOabcdeopq":
        name = glyph_named(font, char)
        if font["glyf"][name].numberOfContours > 0:
            shapes.reorder(font, name, shapes.rotated)


def reverse_all_contours(font):
    shapes.reorder(font, glyph_named(font, "o"), shapes.reversed_contour)
    shapes.reorder(font, glyph_named(font, "b"), shapes.reversed_contour)


def glyph_names_changed(font, name, file):
    """Every glyph but .notdef renamed gNNN in `post`; every other table keeps its bytes (they
    refer to glyphs by number)."""
    from fontTools.ttLib.tables.DefaultTable import DefaultTable
    source = TTFont(pair_folder(name, "before", file))
    post = source["post"]
    renamed = [n if i == 0 else f"g{i:03d}" for i, n in enumerate(source.getGlyphOrder())]
    source.setGlyphOrder(renamed)
    post.extraNames, post.mapping = [], {}
    tables = {tag: source.reader[tag] for tag in source.reader.keys() if tag != "post"}
    tables["post"] = post.compile(source)
    renamed_font = TTFont(sfntVersion=source.sfntVersion, recalcBBoxes=False,
                          recalcTimestamp=False)
    for tag, data in tables.items():
        table = DefaultTable(tag)
        table.data = data
        renamed_font[tag] = table
    renamed_font.save(pair_folder(name, "after", file))


def lazy_resave(font, name, file):
    """Every table read and written again, the modified date a day later."""
    for tag in font.keys():
        font[tag]
    font.recalcTimestamp = False
    font["head"].modified += 86400
    font.save(pair_folder(name, "after", file))


def another_folder(font, name, file):
    shutil.copy(pair_folder(name, "before", file),
                pair_folder(name, "after", "release", "fonts", file))


def to_truetype(font, name, file):
    shapes.to_truetype(font, max_err=font["head"].unitsPerEm * 0.001)
    font.save(pair_folder(name, "after", file.replace(".otf", ".ttf")))


def reordered(font, name, file):
    tags = [t for t in font.reader.keys() if t != "GlyphOrder"]
    for tag in tags:
        font[tag]
    copy_font = TTFont(sfntVersion=font.sfntVersion)
    copy_font.setGlyphOrder(font.getGlyphOrder())
    for tag in reversed(sorted(tags)):
        copy_font[tag] = font[tag]
    copy_font.save(pair_folder(name, "after", file), reorderTables=False)


def dsig(font):
    table = newTable("DSIG")
    table.ulVersion, table.usFlag, table.usNumSigs = 1, 0, 0
    table.signatureRecords = []
    font["DSIG"] = table


def version_bumped(font):
    font["head"].fontRevision = 2.5
    name_record(font, 5, "Version 2.500")


# MARK: the corpus


def build():
    S = "serif"
    # Outlines, characters, glyphs, metrics.
    pair("outline", S, ["outline"], "one point of R 20 units right", move_r)
    pair("advance", S, ["advance"], "Q 80 units wider, the same drawing", wider_q)
    pair("cmap-added", S, ["cmap.added"], "U+2010 added, mapped to the hyphen", hyphen_added)
    pair("cmap-removed", S, ["cmap.removed"], "U+0024 $ no longer mapped (its glyph kept)",
         dollar_removed)
    pair("cmap-variation-sequences", S, ["cmap.variationSequences"],
         "a cmap format 14 subtable added: A + U+FE00", variation_sequence)
    pair("glyphs-count", S, ["glyphs.count"], "an unencoded glyph A.alt added", glyph_added)
    pair("units-per-em", S, ["metrics.head.unitsPerEm"],
         "scaled from 2048 to 1000 units per em (fontTools.ttLib.scaleUpem)", units_per_em)
    for field, kind, value in (
            ("ascent", "metrics.hhea.ascender", 1950), ("descent", "metrics.hhea.descender", -500),
            ("lineGap", "metrics.hhea.lineGap", 100)):
        pair(kind.replace(".", "-").replace("metrics-", ""), S, [kind],
             f"hhea {field} → {value}", set_attr("hhea", **{field: value}))
    for field, kind, value in (
            ("sTypoAscender", "typoAscender", 1600), ("sTypoDescender", "typoDescender", -500),
            ("sTypoLineGap", "typoLineGap", 100), ("usWinAscent", "winAscent", 1950),
            ("usWinDescent", "winDescent", 500), ("sxHeight", "xHeight", 1100),
            ("sCapHeight", "capHeight", 1520)):
        pair("os2-" + kind, S, ["metrics.os2." + kind], f"OS/2 {field} → {value}",
             os2(**{field: value}))
    # OS/2.
    pair("os2-version", S, ["os2.version"], "OS/2 version 4 → 3", os2(version=3))
    pair("os2-weightClass", S, ["os2.weightClass"], "weight class 400 → 300",
         os2(usWeightClass=300))
    pair("os2-widthClass", S, ["os2.widthClass"], "width class 5 → 4", os2(usWidthClass=4))
    pair("os2-fsType", S, ["os2.fsType"], "fsType 0 → 4 (preview & print)", os2(fsType=4))
    pair("os2-fsSelection", S, ["os2.fsSelection"], "USE_TYPO_METRICS set",
         lambda f: os2(fsSelection=f["OS/2"].fsSelection | 0x80)(f))
    pair("os2-avgCharWidth", S, ["os2.avgCharWidth"], "xAvgCharWidth + 10",
         lambda f: os2(xAvgCharWidth=f["OS/2"].xAvgCharWidth + 10)(f))
    pair("os2-subscript", S, ["os2.subscript"], "subscript y offset + 20",
         lambda f: os2(ySubscriptYOffset=f["OS/2"].ySubscriptYOffset + 20)(f))
    pair("os2-superscript", S, ["os2.superscript"], "superscript x size + 20",
         lambda f: os2(ySuperscriptXSize=f["OS/2"].ySuperscriptXSize + 20)(f))
    pair("os2-strikeout", S, ["os2.strikeout"], "strikeout position + 20",
         lambda f: os2(yStrikeoutPosition=f["OS/2"].yStrikeoutPosition + 20)(f))
    pair("os2-familyClass", S, ["os2.familyClass"], "IBM family class → 0x0105",
         os2(sFamilyClass=0x0105))
    pair("os2-panose", S, ["os2.panose"], "PANOSE weight → 8", panose)
    pair("os2-unicodeRanges", S, ["os2.unicodeRanges"], "Unicode range bit 32 set",
         unicode_ranges)
    pair("os2-codePageRanges", S, ["os2.codePageRanges"], "code page bit 5 (Hebrew) set",
         code_pages)
    pair("os2-vendor", S, ["os2.vendor"], "vendor ID → FBAT", os2(achVendID="FBAT"))
    pair("os2-charIndex", S, ["os2.charIndex"], "usLastCharIndex → U+007E, the characters kept",
         char_index)
    pair("os2-defaultChar", S, ["os2.defaultChar"], "usDefaultChar 0 → 0x20",
         os2(usDefaultChar=0x20))
    pair("os2-breakChar", S, ["os2.breakChar"], "usBreakChar 0x20 → 0x2D",
         os2(usBreakChar=0x2D))
    pair("os2-maxContext", S, ["os2.maxContext"], "usMaxContext 2 → 3", os2(usMaxContext=3))
    pair("os2-opticalSize", S, ["os2.opticalSize"],
         "OS/2 version 5 on both sides, optical sizes 16–48 pt → 8–48 pt",
         os2(usLowerOpticalPointSize=80), before=optical_before)
    # head, hhea, post.
    pair("head-macStyle", S, ["head.macStyle"], "macStyle bold set",
         lambda f: set_attr("head", macStyle=f["head"].macStyle | 1)(f))
    pair("head-flags", S, ["head.flags"], "head flags bit 5 set",
         lambda f: set_attr("head", flags=f["head"].flags | 0x20)(f))
    pair("head-bbox", S, ["head.bbox"], "head yMax + 50, no outline changed",
         lambda f: setattr(f, "recalcBBoxes", False) or set_attr(
             "head", yMax=f["head"].yMax + 50)(f))
    pair("head-lowestRecPPEM", S, ["head.lowestRecPPEM"], "lowestRecPPEM → 9",
         set_attr("head", lowestRecPPEM=9))
    pair("head-fontDirectionHint", S, ["head.fontDirectionHint"], "fontDirectionHint 2 → 0",
         set_attr("head", fontDirectionHint=0))
    pair("hhea-caret", S, ["hhea.caret"], "caret slope run 0 → 200",
         set_attr("hhea", caretSlopeRun=200))
    pair("post-italicAngle", S, ["post.italicAngle"], "italic angle 0 → -11",
         set_attr("post", italicAngle=-11.0))
    pair("post-underline", S, ["post.underline"], "underline position − 30",
         lambda f: set_attr("post", underlinePosition=f["post"].underlinePosition - 30)(f))
    pair("post-isFixedPitch", S, ["post.isFixedPitch"], "isFixedPitch 0 → 1",
         set_attr("post", isFixedPitch=1))
    # name.
    pair("name-13", S, ["name.13"], "the licence (name 13) replaced",
         lambda f: name_record(f, 13, "This Font Software is licensed under the SIL Open Font "
                                      "License, Version 1.1."))
    pair("name-0", S, ["name.0"], "the copyright (name 0) replaced",
         lambda f: name_record(f, 0, "Copyright (c) 2024 The Corpus Authors"))
    # STAT.
    pair("stat", S, ["stat", "name.258"], "a STAT axis value Bold (700) added",
         stat([REGULAR_VALUE, BOLD_VALUE]), before=stat([REGULAR_VALUE]))
    # Hinting.
    pair("hinting-fpgm", "hinted", ["hinting.fpgm"], "fpgm: PUSHB 0, POP appended",
         program("fpgm", PUSH_POP))
    pair("hinting-prep", "hinted", ["hinting.prep"], "prep: PUSHB 0, POP appended",
         program("prep", PUSH_POP))
    pair("hinting-cvt", "hinted", ["hinting.cvt"], "cvt 0 + 10", cvt)
    pair("hinting-gasp", "hinted", ["hinting.gasp"], "gasp ranges' behaviour changed", gasp)
    pair("hinting-hdmx", "hinted", ["hinting.hdmx"], "hdmx at 12 ppem, every width + 1",
         hdmx(1), before=hdmx(0))
    pair("hinting-ltsh", "hinted", ["hinting.ltsh"], "LTSH: every glyph linear from 2 ppem, not 1",
         ltsh(2), before=ltsh(1))
    pair("hinting-vdmx", "hinted", ["hinting.vdmx"], "VDMX yMax at 12 ppem 11 → 12", vdmx(12),
         before=vdmx(11))
    pair("hinting-glyphs", "hinted", ["hinting.glyphs"], "R's instructions: PUSHB 0, POP appended",
         glyph_instructions)
    pair("hinting-maxp", "hinted", ["hinting.maxp"], "maxp maxStackElements + 16", maxp_limits)
    pair("hinting-cvar", "sans", ["hinting.cvar"], "cvar deltas at wght 900: 10 → 20",
         cvar([20, None]), before=cvar([10, None]))
    pair("hinting-cff", "garamond", ["hinting.cff"], "CFF Private BlueScale → 0.05",
         cff_hints)
    # Colour and bitmaps.
    G = "garamond"
    pair("colour-cpal", G, ["colour.cpal"], "palette 0 colour 0 #CC1A1A → #1A33CC",
         colour_font([BLUE, GREY]), before=colour_font([RED, GREY]))
    # A colour glyph changed is named by its table's per-glyph kind; the table's own kind
    # says what is not one glyph's: the table added or removed, a strike's metrics or a strike
    # added.
    pair("colour-colr-layers", G, ["colour.colr.layers"], "COLR: o's second layer removed",
         colour_font([RED, GREY], second_layer=False), before=colour_font([RED, GREY]))
    pair("colour-colr-paints", G, ["colour.colr.paints"],
         "COLR version 1: o's PaintSolid alpha 1 → 0.5", colour_paints(0.5),
         before=colour_paints(1.0))
    pair("colour-colr", G, ["colour.colr"], "COLR added, CPAL on both sides the same",
         colour_font([RED, GREY]), before=colour_font([RED, GREY], colr=False))
    pair("colour-svg-glyphs", G, ["colour.svg.glyphs"], "SVG glyph of o red → blue",
         svg("blue"), before=svg("red"))
    pair("colour-svg", G, ["colour.svg"], "SVG table added (o red)", svg("red"))
    pair("colour-sbix-glyphs", G, ["colour.sbix.glyphs"], "sbix: o's PNG grey 64 → 192",
         sbix(192), before=sbix(64))
    pair("colour-sbix", G, ["colour.sbix"], "sbix: a strike at 40 ppem added, the same images",
         sbix(64, ppems=(20, 40)), before=sbix(64))
    pair("colour-cbdt-glyphs", G, ["colour.cbdt.glyphs"], "CBDT: o's PNG grey 64 → 192",
         bitmaps("C", png(192)), before=bitmaps("C", png(64)))
    pair("colour-cbdt", G, ["colour.cbdt"], "CBLC: the 8 ppem strike's ascender 6 → 7",
         bitmaps("C", png(64), ascender=7), before=bitmaps("C", png(64)))
    pair("bitmaps-ebdt", G, ["bitmaps.ebdt"], "EBDT: o's 2 × 2 bitmap rows changed",
         bitmaps("E", bytes([0xC0, 0x80])), before=bitmaps("E", bytes([0xC0, 0xC0])))
    # Vertical, variations, MATH, BASE, PCLT, a table no comparison knows.
    pair("vertical-vhea", G, ["vertical.vhea"], "vhea ascent 880 → 900", vertical(900),
         before=vertical())
    pair("vertical-advance", G, ["vertical.advance"], "o's vertical advance 1000 → 1100",
         vertical(o_height=1100), before=vertical())
    pair("vertical-origin", G, ["vertical.origin"], "VORG default origin 880 → 900",
         vertical_origins(900), before=vertical_origins(880))
    pair("vertical-variations", "sans", ["vertical.variations"],
         "VVAR advance delta at wght 900: 10 → 20", vertical_variations(20),
         before=vertical_variations(10))
    pair("variations-metrics", "sans", ["variations.metrics"],
         "MVAR x-height delta at wght 900: 20 → 40", metric_variations(40),
         before=metric_variations(20))
    pair("math-constants", "hinted", ["math.constants"], "MATH AxisHeight + 10", math_constant)
    pair("math-glyphs", "hinted", ["math.glyphs"], "MATH variants: MinConnectorOverlap + 10", math_glyphs)
    pair("base", S, ["base"], "BASE: latn's romn baseline 0 → 10", baselines(10),
         before=baselines(0))
    pair("pclt", S, ["pclt"], "PCLT x-height 1063 → 1100", pclt(1100), before=pclt(1063))
    pair("table-unexplained", S, ["table.unexplained"], "meta: dlng Latn → Latn, Grek",
         meta("Latn,Grek"), before=meta("Latn"))
    # Faces, axes, instances.
    pair("face-added", S, ["face.added"], "a Bold face added beside the Regular", resave,
         save=with_bold)
    pair("face-removed", S, ["face.removed"], "the Bold face removed", resave,
         save=bold_removed)
    pair("face-renamed", S, ["face.renamed", "name.2", "name.4", "name.6"], "style Regular → Book (name IDs 2, 4, 6)",
         renamed_face)
    V = "sans"
    pair("axis-changed", V, ["axis.changed", "advance", "outline", "sample"], "wght maximum 900 → 1000", axis_range)
    pair("axis-added", V, ["axis.added", "name.281"], "an axis XTRA 0–100 added, with no variations",
         extra_axis)
    pair("axis-removed", V, ["axis.removed", "name.281"], "the axis XTRA removed",
         before=extra_axis, undone=True)
    pair("instance-added", V, ["instance.added", "name.281"], "named instance Heavy (wght 850) added",
         heavy_instance)
    pair("instance-removed", V, ["instance.removed", "name.281"], "named instance Heavy removed",
         before=heavy_instance, undone=True)
    pair("instance-moved", V, ["instance.moved", "advance", "kerning", "outline", "sample"], "named instance Bold at wght 650, not 700",
         bold_instance_moved)
    # Shaping.
    H = "shaping"
    pair("feature-removed", H, ["feature.removed", "shaping.featureRemoved"],
         "GSUB's smcp feature removed", smcp_removed)
    pair("feature-added", H, ["feature.added", "shaping.featureAdded"],
         "GSUB's smcp feature added", before=smcp_removed, undone=True)
    pair("feature-changed", H, ["feature.changed", "shaping.feature"],
         "liga still listed, using no lookup (fi no longer a ligature)", liga_emptied)
    pair("shaping-feature", H, ["shaping.feature"], "the ligature Q y → Q.long, not Q_y",
         ligature_retargeted)
    pair("kerning", H, ["kerning"], "the class pair T o − 150", kerning("T", "o", -150))
    pair("sample", H, ["kerning", "sample"], "a kerning pair of the sample (v o) − 120",
         kerning("v", "o", -120))
    pair("mark", H, ["mark"], "a's top mark anchor 60 units higher", mark_moved)
    pair("shaping-unexplained", H, ["shaping.unexplained"],
         "a GPOS lookup no feature uses added", unused_lookup)
    pair("shaping-scriptAdded", H, ["shaping.scriptAdded", "shaping.languageSystemAdded"],
         "script armn added to GSUB and GPOS (latn's features)", script_added)
    pair("shaping-scriptRemoved", H, ["shaping.scriptRemoved", "shaping.languageSystemRemoved"], "script armn removed",
         before=script_added, undone=True)
    pair("shaping-languageSystemAdded", H, ["shaping.languageSystemAdded"],
         "language system latn/TRK added", language_system_added)
    pair("shaping-languageSystemRemoved", H, ["shaping.languageSystemRemoved"],
         "language system latn/TRK removed", before=language_system_added, undone=True)
    # Languages (Basic Latin, EB Garamond).
    L = "latin"
    pair("language-added", L, ["cmap.added", "language.added", "language.nearly"],
         "Ä Ö Ü ä ö ü ß added (mapped to A O U a o u s): German gained", mapped(GERMAN))
    pair("language-removed", L, ["cmap.removed", "language.removed", "language.nearly"],
         "Ä Ö Ü ä ö ü ß removed: German lost", unmapped(GERMAN), before=mapped(GERMAN))
    pair("language-nearly", L, ["cmap.added", "language.nearly", "language.added"],
         "ü added to Ä Ö Ü ä ö: German still nearly supported, missing ß only",
         mapped([0xFC]), before=mapped([0xC4, 0xD6, 0xDC, 0xE4, 0xF6]))

    # No-ops.
    pair("noop-resave", S, [], "every table decompiled and compiled again by fontTools, a day "
         "later (head.modified, checkSumAdjustment: info only)", resave, save=lazy_resave)
    pair("noop-rotated", S, [], "every contour of A S O a b c d e o p q starts at its third "
         "point", rotate_all)
    pair("noop-reversed", S, [], "all contours of o and of b reversed", reverse_all_contours)
    pair("noop-glyphs-renamed", S, [], "every glyph renamed gNNN in post", resave,
         save=glyph_names_changed)
    pair("noop-another-folder", S, [], "the same file, in after/release/fonts/", resave,
         save=another_folder)
    pair("noop-cu2qu", G, [], "CFF → TrueType by cu2qu at its default tolerance (0.001 em)",
         resave, save=to_truetype)
    pair("noop-reordered", S, [], "the same tables in another order", resave, save=reordered)
    pair("noop-dsig", S, [], "an empty DSIG table added", dsig)
    pair("noop-version", S, [], "name ID 5 and head.fontRevision 2.37 → 2.5 (info only)",
         version_bumped)

    # Layout rules (#58, item 4): a rule changed where no tried text reaches it, and repacks
    # that change no rule. A changed rule is expected as the kind of what it shapes.
    pair("gsub-backtrack", H, ["shaping.feature"],
         "calt: the hyphen after V no longer hyphen.cap (V out of the chain rule's backtrack)",
         context_without(["hyphen"], "BacktrackCoverage", "V"))
    pair("gsub-lookahead", H, ["shaping.feature"],
         "calt: Q before p no longer Q.short (p out of the chain rule's lookahead)",
         context_without(["Q"], "LookAheadCoverage", "p"))
    pair("gsub-ligature-component", S, ["feature.changed", "shaping.feature"],
         "liga: the ligature fi (U+FB01) made of f j, not f i (nothing forms before it: "
         "\"fi\" sets f i after, \"fj\" the ligature; the feature's sample loses its fi)",
         ligature_component("fi", ["j"]))
    pair("gsub-ligature-preempted", S, ["layout.rule"],
         "liga: the ligature ffi (U+FB03) made of f f l, not f f i (ffl still U+FB04, first; "
         "f f, first too, forms before ffi can: no text shows it)",
         ligature_component("uniFB03", ["f", "l"]))
    pair("gpos-class-kern-instance", V, ["kerning"],
         "the class pair V o − 40 at wght 700 only (a VariationIndex delta of a region of "
         "its own; the default and the other instances as they were)",
         kern_at_instance(-40), before=kern_at_instance(0))
    pair("gpos-mark-anchor", H, ["mark"], "the acute's mark anchor 40 units right",
         mark_anchor_moved)
    pair("lookup-flag", H, ["shaping.feature"],
         "liga's Q y lookup: lookupFlag IgnoreMarks set (Q + acute + y ligates)",
         liga_ignores_marks)
    pair("gdef-class", H, ["mark", "shaping.feature"],
         "GDEF: the acute's glyph class mark → base, liga's Q y lookup ignoring marks on both "
         "sides (Q + acute + y no longer ligates)", glyph_class("acutecomb", 1),
         before=liga_ignores_marks)
    released_pair("noop-resave-fontforge", "dejavu", DEJAVU,
                  "DejaVu Serif as released (FontForge): every table decompiled and compiled "
                  "again by fontTools (lookups repacked), glyph bounding boxes kept", resaved_fully)
    released_pair("noop-ttx-roundtrip", "dejavu-bold", DEJAVU_BOLD,
                  "DejaVu Serif Bold as released, names trimmed: ttx -b to XML and back",
                  ttx_round_trip, before=names_trimmed)
    pair("noop-split-subtables", H, [],
         "kern: the glyph-pair subtable split in two by first glyph, the same pairs",
         kerning_split)


# Pair name → why diff gets it wrong today: DiffCorpusTests runs it as a known issue, which
# fails once it passes, so that the entry is removed with the fix.
KNOWN = {
    "units-per-em": "values in font units (hhea and OS/2 metrics, sub- and superscript, "
    "strikeout, underline, average width, bounding box, kerning) are compared as numbers, not "
    "per em, so a font scaled to another units per em also reports each of them, and the sample "
    "and a feature's text set from rounded positions",
}

# Pair name → what diff reaches today where KNOWN says it is wrong (verdict, kinds):
# DiffCorpusTests holds it to that, so that a known failure hides no other regression.
TODAY = {
    "units-per-em": ("changed", [
        "head.bbox", "kerning", "metrics.head.unitsPerEm", "metrics.hhea.ascender",
        "metrics.hhea.descender", "metrics.os2.capHeight", "metrics.os2.typoAscender",
        "metrics.os2.typoDescender", "metrics.os2.typoLineGap", "metrics.os2.winAscent",
        "metrics.os2.winDescent", "metrics.os2.xHeight", "os2.avgCharWidth", "os2.strikeout",
        "os2.subscript", "os2.superscript", "post.underline", "sample"]),
}


README = """# The `diff` corpus

Made once by `../make-corpus.py` (`/usr/bin/python3 make-corpus.py`, python3-fonttools), and
committed; `DiffCorpusTests` runs `diff --exit-code` on every pair and checks it against
`expected.tsv`, which the builder writes with this file. Each pair is `<name>/before/` and
`<name>/after/`: a font cut to the characters of the default sample (`Sphinx of black quartz,
judge my vow.`) and the few its edits need, and the same font loaded and saved by fontTools with
the one edit the pair is named after. A **changed** pair must exit 1 with exactly the kinds
listed in diff.json's `changes` (docs/diff.md, "Changes and their kinds"), each said in words;
an **unchanged** pair must exit 0, "No family changed". A pair `diff` gets wrong today says
so (“known failure”, with what it reaches today): the test holds it to today's verdict and
kinds, and runs the expected ones as a known issue, which fails once they pass, so that the note
is taken out with the fix.

Sources, and their licences (the fonts keep their copyright and licence name records; they are
renamed “Corpus …”):

| source | font |
|---|---|
| serif | Corpus Serif: DejaVu Serif (Bitstream Vera licence with the DejaVu changes, `../../Fonts/licences/DejaVu.txt`), unhinted, its OS/2 table made version 4 |
| hinted | Corpus Hinted: the same, with its TrueType hinting and its `MATH` table |
| garamond | Corpus Garamond: EB Garamond 12 (SIL Open Font License 1.1, `../../Fonts/licences/EBGaramond.txt`), CFF, from `../base/` |
| shaping | Corpus Shaping: EB Garamond 12 (SIL OFL 1.1) from `../shaping-before/`, with `kern`, `liga`, `smcp`, `calt`, `mark`, `mkmk` and the combining acute |
| latin | Corpus Latin: EB Garamond 12 (SIL OFL 1.1), Basic Latin, for the languages supported |
| sans | Corpus Sans VF: Inter's roman variable font (SIL OFL 1.1, `../../Fonts/licences/Inter.txt`) from `../variable/` |
| dejavu | DejaVu Serif 2.37 as released, `../../Fonts/DejaVuSerif.ttf` (Bitstream Vera licence with the DejaVu changes, `../../Fonts/licences/DejaVu.txt`): compiled by FontForge, not by fontTools, its names as they are |
| dejavu-bold | DejaVu Serif Bold 2.37, `../../Fonts/DejaVuSerif-Bold.ttf` (the same licence), every table its released bytes but `name`, whose two records ending in a line end and spaces are trimmed |

Where a pair lists more than the kind it is named after, the edit brings them: a STAT value, an
axis or an instance names itself in a new name record; a face renamed changes name IDs 2, 4 and
6; an axis range or an instance moved draws the instances at other places; a script added brings
its default language system; German's letters change which languages are nearly supported.
A colour glyph changed is named by its table's per-glyph kind (`colour.colr.layers`,
`colour.colr.paints`, `colour.svg.glyphs`, `colour.sbix.glyphs`, `colour.cbdt.glyphs`); the
table's own kind (`colour.colr`, `colour.svg`, `colour.sbix`, `colour.cbdt`) by what is no one
glyph's: the table added or removed, a strike added or its metrics changed.

The layout pairs (#58) change a rule where no text `diff` tried before the rules were compared
reaches it, or repack rules without changing one; a changed rule is expected as the kind of what
its own text shapes (`shaping.feature`, `kerning`, `mark`), or `layout.rule` where no text shows
it: the pre-empted ligature's ffi is formed by a lookup that `ff`, in the lookup before it, never
lets apply. The two re-saves of a font FontForge compiled keep its glyph bounding boxes
(`recalcBBoxes=False`, `ttx -b`): fontTools would recompute the bounding boxes of 176 of DejaVu
Serif's glyph headers, moving `xMin` by a unit in 81 of them, which FreeType then draws a unit
over, and head flag bit 1 with them: a change, not a repack. `ttx` drops the line end and spaces
that end DejaVu's copyright and licence records, so the round trip starts from the Bold with those
trimmed.

| pair | source | what differs | verdict | kinds |
|---|---|---|---|---|
"""


def write_manifest():
    with open(os.path.join(CORPUS, "expected.tsv"), "w") as out:
        out.write("# pair\tverdict\tkinds\tknown failure\ttoday's verdict\ttoday's kinds "
                  "(written by make-corpus.py)\n")
        for name, source, verdict, kinds, what, known in PAIRS:
            note = KNOWN.get(name, known)
            assert bool(note) == (name in TODAY), name
            today, today_kinds = TODAY.get(name, ("", []))
            out.write(f"{name}\t{verdict}\t{','.join(kinds)}\t{note}\t{today}\t"
                      f"{','.join(sorted(today_kinds))}\n")
    rows = []
    for name, source, verdict, kinds, what, known in PAIRS:
        kinds_text = ", ".join(f"`{k}`" for k in kinds) if kinds else "—"
        note = KNOWN.get(name, known)
        if note:
            today, today_kinds = TODAY[name]
            note = (f" (known failure: {note}; today {today}: "
                    + ", ".join(f"`{k}`" for k in sorted(today_kinds)) + ")")
        rows.append(f"| `{name}` | {source} | {what} | {verdict} | {kinds_text}{note} |")
    with open(os.path.join(CORPUS, "README.md"), "w") as out:
        out.write(README + "\n".join(rows) + "\n")


if __name__ == "__main__":
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"  # the same bytes every time it runs
    if os.path.isdir(CORPUS):
        for entry in os.listdir(CORPUS):
            path = os.path.join(CORPUS, entry)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
    sources()
    build()
    shutil.rmtree(os.path.join(CORPUS, ".sources"))
    write_manifest()
