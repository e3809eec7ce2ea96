#!/usr/bin/python3
"""The `diff` measurement's pair of full fonts, for the side-by-side run with diffenator3:
Noto Sans Regular as installed, and a copy with one class kerning pair tightened by 50 units,
one glyph pair changed, one `liga` ligature retargeted and one glyph (R) moved.

    /usr/bin/python3 Benchmarks/diff-pair.py DIR     # writes DIR/before.ttf, DIR/after.ttf

`Benchmarks/bench-diff.sh` calls it once and keeps DIR (under .build/) as a cache.
"""
import os, shutil, sys
from fontTools.ttLib import TTFont

SOURCE = "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"
OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
shutil.copyfile(SOURCE, os.path.join(OUT, "before.ttf"))
font = TTFont(SOURCE)
gpos = font["GPOS"].table
done = set()
for lookup in gpos.LookupList.Lookup:
    subtables = lookup.SubTable
    if lookup.LookupType == 9:
        subtables = [s.ExtSubTable for s in subtables]
    elif lookup.LookupType != 2:
        continue
    for s in subtables:
        if getattr(s, "LookupType", 2) != 2:
            continue
        if s.Format == 2 and "class" not in done:
            for record in s.Class1Record[1:]:
                for value in record.Class2Record[1:]:
                    if value.Value1 is not None and getattr(value.Value1, "XAdvance", 0):
                        value.Value1.XAdvance -= 50
                        done.add("class")
                        break
                if "class" in done:
                    break
        if s.Format == 1 and "glyph" not in done:
            for pair_set in s.PairSet:
                for record in pair_set.PairValueRecord:
                    if record.Value1 is not None and getattr(record.Value1, "XAdvance", 0):
                        record.Value1.XAdvance += 40
                        done.add("glyph")
                        break
                if "glyph" in done:
                    break
gsub = font["GSUB"].table
liga = {i for r in gsub.FeatureList.FeatureRecord if r.FeatureTag == "liga"
        for i in r.Feature.LookupListIndex}
for index, lookup in enumerate(gsub.LookupList.Lookup):
    if index not in liga:
        continue
    subtables = lookup.SubTable
    if lookup.LookupType == 7:
        subtables = [s.ExtSubTable for s in subtables]
    for s in subtables:
        if getattr(s, "LookupType", lookup.LookupType) == 4 and "liga" not in done:
            for first, ligatures in s.ligatures.items():
                if ligatures:
                    ligatures[0].LigGlyph = first
                    done.add("liga")
                    break
glyf = font["glyf"]
r = font.getBestCmap()[ord("R")]
glyph = glyf[r]
if glyph.numberOfContours > 0:
    glyph.coordinates.translate((30, 0))
font.save(os.path.join(OUT, "after.ttf"))
print("changed:", ", ".join(sorted(done)) + ", R moved", file=sys.stderr)
