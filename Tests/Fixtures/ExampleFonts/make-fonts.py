#!/usr/bin/python3
"""Makes the example job's extra fixture font. Run once, by hand, with Debian's
python3-fonttools and fonts-dejavu-core (the product and the tests never run it):

  /usr/bin/python3 make-fonts.py

DejaVuSans-Subset.ttf ("DejaVu Sans"): DejaVu Sans Book cut down to printable ASCII, without
hinting. The example job (`fonti-batch init`, specimens.yaml.example) pairs DejaVu Serif, which
the shared test fonts have, with DejaVu Sans, which they do not; `../example.conf` adds this
font to them so that the test of `init` + `check` never depends on the fonts a machine has.
It keeps its family name: the job names it (DejaVu's licence asks only that "Bitstream" and
"Vera" be left out of a modified font's names).
"""
import os

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

font = TTFont(SOURCE)
options = subset.Options()
options.hinting = False
options.name_IDs = ["*"]
options.name_languages = ["*"]
options.notdef_outline = True
options.layout_features = ["*"]
subsetter = subset.Subsetter(options)
subsetter.populate(unicodes=range(0x20, 0x7F))
subsetter.subset(font)
font.save(os.path.join(HERE, "DejaVuSans-Subset.ttf"))
