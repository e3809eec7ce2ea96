#!/usr/bin/python3
# Makes HostileNames.ttf once (run by hand, never by the tests), with fontTools: a tiny drawn
# font whose name table is hostile. Its only English family name is "Babel Sans" (name ID 1,
# English United States). Every other of the Windows languages below has a family name of its
# own, as name IDs 1, 16 (typographic family) and 21 (WWS family), which fontconfig lists
# before name ID 1: so fontconfig's first family name is the Chinese (Taiwan) one, with
# control characters and an escape sequence in it, and the user's locale decides which name
# `FcFontList` puts first. Extra records (name IDs 256 and up, in every language) take the
# table to 2,400 records. For the tests that every command names the family alike (its
# English name) and that `run` draws it.
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILY = "Babel Sans"
TAIWAN = 0x0404
ENGLISH = 0x0409
# Windows language IDs, English (0x0409) among them.
LANGUAGES = [
    0x0404, 0x0405, 0x0406, 0x0407, 0x0408, 0x0409, 0x040A, 0x040B,
    0x040C, 0x040D, 0x040E, 0x040F, 0x0410, 0x0411, 0x0412, 0x0413, 0x0414, 0x0415, 0x0416,
    0x0418, 0x0419, 0x041A, 0x041B, 0x041C, 0x041D, 0x041E, 0x041F, 0x0420, 0x0421, 0x0422,
    0x0423, 0x0424, 0x0425, 0x0426, 0x0427, 0x0429, 0x042A, 0x042B, 0x042C, 0x042D, 0x042F,
    0x0436, 0x0437, 0x0438, 0x0439, 0x043E, 0x043F, 0x0441, 0x0443, 0x0444, 0x0445, 0x0446,
    0x0447, 0x0448, 0x0449, 0x044A, 0x044B, 0x044C, 0x044D, 0x044E, 0x0450, 0x0452, 0x0456,
    0x045A, 0x0461, 0x0463, 0x0465, 0x0804, 0x0807, 0x0809, 0x080A, 0x080C, 0x0810, 0x0813,
    0x0814, 0x0816, 0x081A, 0x0C04, 0x0C07, 0x0C09, 0x0C0A, 0x0C0C, 0x1004, 0x1009, 0x100C,
    0x1404, 0x1409, 0x140C, 0x1809, 0x180C, 0x1C09, 0x2009, 0x2409, 0x2809, 0x2C09, 0x3009,
    0x3409,
]
EXTRA_IDS = range(256, 276)
# The proofs fixtures' script builds its drawn fonts alike.
_spec = importlib.util.spec_from_file_location(
    "make_proof_fonts", os.path.join(HERE, "..", "make-proof-fonts.py"))
_proof_fonts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_proof_fonts)
SQUARE = [(100, 0), (100, 600), (500, 600), (500, 0)]


def family_name(language):
    if language == TAIWAN:
        return "巴別\u0001\u001b[31m黑體\u0007\u0085"
    if language == ENGLISH:
        return FAMILY
    return f"Babel {language:04X}"


def main():
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    glyphs = {".notdef": SQUARE, "space": None, **{c: SQUARE for c in letters}}
    cmap = {0x20: "space", **{ord(c): c for c in letters}}
    fb = _proof_fonts.drawn_font(glyphs, cmap, FAMILY, mac=False)
    name = fb.font["name"]
    for language in LANGUAGES:
        family = family_name(language)
        name.setName(family, 1, 3, 1, language)
        if language & 0x3FF != ENGLISH & 0x3FF:
            # Typographic and WWS family names, which fontconfig lists before the family
            # name: in every language but English.
            name.setName(family, 16, 3, 1, language)
            name.setName(family, 21, 3, 1, language)
        name.setName("Regular", 2, 3, 1, language)
        name.setName(family + " Regular", 4, 3, 1, language)
        for extra in EXTRA_IDS:
            name.setName(f"Babel extra {extra}", extra, 3, 1, language)
    path = os.path.join(HERE, "HostileNames.ttf")
    fb.save(path)
    print(f"{path}: {len(name.names)} name records, {os.path.getsize(path)} bytes")
    name.names = [r for r in name.names if r.langID & 0x3FF != ENGLISH & 0x3FF and r.nameID < 256]
    path = os.path.join(HERE, "HostileNamesNoEnglish.ttf")
    fb.save(path)
    print(f"{path}: {len(name.names)} name records, {os.path.getsize(path)} bytes")


main()
