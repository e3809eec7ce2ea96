#!/bin/sh
# Made once with python3-fonttools (Debian 4.38); the tests never run this.
# Subsets of Noto Sans Devanagari and Noto Sans Arabic (SIL OFL 1.1 without a Reserved Font
# Name, fonts-noto-core) for the tests of features that act only in context: Indic clusters
# (rphf, half, blwf, rkrf, vatu, pres, cjct, akhn...: both of the font's Devanagari script
# systems, dev2 and the first specification's deva, are kept) and Arabic joining positions
# (init, medi, fina). Every layout table and feature the kept characters reach is kept; names
# are unchanged. Licence: ProofFonts/licences/Noto.txt.
set -e
cd "$(dirname "$0")/ProofFonts"
NOTO=/usr/share/fonts/truetype/noto
DEVA="कखगघङचजञटठडतदधनपबमयरलवशषसह़्िीुूृेैंःँ"
python3 -m fontTools.subset "$NOTO/NotoSansDevanagari-Regular.ttf" \
  --text="$DEVA " --layout-features='*' --name-IDs='*' --notdef-outline \
  --output-file=NotoSansDevanagari-Subset.ttf
ARAB="ابتثجحخدرسعفقكلمنهةوىيـ"
python3 -m fontTools.subset "$NOTO/NotoSansArabic-Regular.ttf" \
  --text="$ARAB " --layout-features='*' --name-IDs='*' --notdef-outline \
  --output-file=NotoSansArabic-Subset.ttf
