#!/usr/bin/python3
"""Makes the `diff` fixtures of small outline moves once, from `base/`; the fonts are committed.

    /usr/bin/python3 make-outline-fixtures.py      (needs python3-fonttools; writes beside
                                                    this script)

`nudge-5/` and `nudge-30/` are `base/` with only R's points right of x 300 moved 5 and 30
units right (1000 units per em). `nudge-point/` is `base/` with only the point of R's leg
furthest right moved 5 units right: a move that paints fewer pixels than the threshold at
64 px per em.
The product and the tests never run this script.
"""
import importlib.util
import os
from fontTools.ttLib import TTFont
from fontTools.pens.recordingPen import RecordingPen

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("fixtures", os.path.join(HERE, "make-fixtures.py"))
fixtures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixtures)

if __name__ == "__main__":
    for units in (5, 30):
        font = TTFont(fixtures.out("base", "FixtureGaramond-Regular.otf"))
        fixtures.redraw_cff(font, "R", transform=lambda x, y: (x + units if x > 300 else x, y))
        font.save(fixtures.out("nudge-%d" % units, "FixtureGaramond-Regular.otf"))

    font = TTFont(fixtures.out("base", "FixtureGaramond-Regular.otf"))
    glyphs = font.getGlyphSet()
    bounds = RecordingPen()
    glyphs["R"].draw(bounds)
    right = max(x for _, points in bounds.value for (x, _) in points)
    fixtures.redraw_cff(font, "R", transform=lambda x, y: (x + 5 if x == right else x, y))
    font.save(fixtures.out("nudge-point", "FixtureGaramond-Regular.otf"))
