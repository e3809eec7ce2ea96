#!/usr/bin/python3
"""The `diff` measurement's fonts: every installed font file copied twice, one glyph moved in
~10 % of the families of the second copy; the changed families (lower-cased) listed in
changed.json.

    /usr/bin/python3 Benchmarks/diff-copies.py DIR     # writes DIR/{before,after,changed.json}

`Benchmarks/bench-diff.sh` (part of `make bench`) calls it once and keeps DIR (under .build/)
as a cache. Needs python3-fonttools and fc-scan; the copies are never committed.
"""
import os, shutil, subprocess, random, json, sys
from fontTools.ttLib import TTFont
from fontTools.pens.recordingPen import RecordingPen
from fontTools.pens.t2CharStringPen import T2CharStringPen
OUT=sys.argv[1] if len(sys.argv) > 1 else "/tmp/bench"
ROOT="/usr/share/fonts"; B=os.path.join(OUT, "before"); A=os.path.join(OUT, "after")
shutil.rmtree(B, True); shutil.rmtree(A, True)
files=[]
for d,_,fs in os.walk(ROOT):
    for f in fs:
        if f.lower().endswith(('.ttf','.otf','.ttc','.otc')):
            files.append(os.path.relpath(os.path.join(d,f), ROOT))
files.sort()
fam={}
for rel in files:
    for side in (B,A):
        os.makedirs(os.path.dirname(os.path.join(side,rel)), exist_ok=True)
        shutil.copyfile(os.path.join(ROOT,rel), os.path.join(side,rel))
    out=subprocess.run(["fc-scan","--format","%{family[0]}\n",os.path.join(ROOT,rel)],capture_output=True,text=True).stdout.split("\n")[0]
    if out: fam.setdefault(out.lower(),[]).append(rel)
random.seed(2026)
names=sorted(fam)
target=round(len(names)*0.10)
changed={}
def modify(path):
    f=TTFont(path)
    cmap=f.getBestCmap()
    upem=f['head'].unitsPerEm
    shift=max(10, upem//40)
    for ch in "oaenshrt0123456789":
        if ord(ch) not in cmap: continue
        g=cmap[ord(ch)]
        if 'glyf' in f:
            glyf=f['glyf']; gl=glyf[g]
            if gl.isComposite() or gl.numberOfContours<=0: continue
            coords=gl.coordinates
            xs=sorted(x for x,y in coords); mid=xs[len(xs)//2]
            for i,(x,y) in enumerate(coords):
                if x>mid: coords[i]=(x+shift,y)
            gl.recalcBounds(glyf)
        elif 'CFF ' in f:
            gs=f.getGlyphSet(); rec=RecordingPen(); gs[g].draw(rec)
            pts=[p for op,ps in rec.value for p in ps]
            if not pts: continue
            xs=sorted(x for x,y in pts); mid=xs[len(xs)//2]
            top=f['CFF '].cff.topDictIndex[0]; cs=top.CharStrings
            pen=T2CharStringPen(f['hmtx'][g][0], gs)
            for op,ps in rec.value:
                getattr(pen,op)(*[(x+shift if x>mid else x,y) for x,y in ps])
            cs[g]=pen.getCharString(private=cs[g].private, globalSubrs=top.GlobalSubrs)
        else:
            return None
        f.save(path)
        return ch
    return None
for n in random.sample(names, len(names)):
    if len(changed)>=target: break
    rel=fam[n][0]
    if rel.lower().endswith(('.ttc','.otc')): continue
    try:
        ch=modify(os.path.join(A,rel))
    except Exception as e:
        print("skip",n,e,file=sys.stderr); shutil.copyfile(os.path.join(ROOT,rel), os.path.join(A,rel)); continue
    if ch: changed[n]={"file":rel,"char":ch}
json.dump(changed, open(os.path.join(OUT, "changed.json"),"w"), indent=1, sort_keys=True)
print(len(names),"families;",len(changed),"changed")
