#!/bin/sh
# Made once with python3-fonttools (Debian 4.38); the tests never run this.
# A subset of Noto Naskh Arabic (SIL OFL 1.1, fonts-noto-core) for the tests that cut Arabic
# text: the characters of the tests' sentences (one of words ending in a hamza, which joins to
# nothing; one of words with lam-alef), a space, ZERO WIDTH JOINER and the ellipsis,
# with every layout table (the joining forms are GSUB's init/medi/fina); names are unchanged.
# Licence: ../Fonts/licences/Noto.txt.
set -e
cd "$(dirname "$0")"
AR="نص حكيم له سر قاطع وذو شأن عظيم شيء بطء دفء عبء ملء بدء بلاد كلام"
python3 -m fontTools.subset /usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf \
  --text="$AR ‍…" --layout-features='*' --name-IDs='*' --notdef-outline \
  --output-file=NotoNaskhArabic-Sentence.ttf
