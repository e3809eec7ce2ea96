#!/bin/sh
# Made once with python3-fonttools (Debian 4.38); the tests never run this.
# Subsets of two installed fonts, for the scripts written without spaces between words:
# Japanese (Droid Sans Fallback, Apache 2.0, fonts-droid-fallback) and Thai (Noto Sans Thai,
# SIL OFL 1.1, fonts-noto-core). Only the characters of the tests' sentences and a space are
# kept, with every layout table (Thai marks are positioned by GPOS), and for Thai U+0E4D, which
# HarfBuzz shapes SARA AM (U+0E33) as; names are unchanged.
# Licences: ../Fonts/licences/Droid.txt and ../Fonts/licences/Noto.txt.
set -e
cd "$(dirname "$0")"
JA="東京タワーは日本の電波塔で高さは三百三十三メートルあります。"
TH="ภาษาไทยเป็นภาษาที่มีระดับเสียงของคำแน่นอนหรือวรรณยุกต์เช่นเดียวกับภาษาจีน"
python3 -m fontTools.subset /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf --text="$JA " \
  --layout-features='*' --name-IDs='*' --notdef-outline --output-file=DroidSansFallback-Japanese.ttf
python3 -m fontTools.subset /usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf --text="$TH ํ" \
  --layout-features='*' --name-IDs='*' --notdef-outline --output-file=NotoSansThai-Thai.ttf
