#!/usr/bin/python3
# Makes Noncharacters.ttf once (run by hand, never by the tests), with fontTools: a tiny drawn
# font, family "Noncharacter Test", whose cmap maps the letters A-D and code points Cairo
# refuses as text: noncharacters of the BMP (U+FDD0, U+FDEF, U+FFFE, U+FFFF) and of plane 1
# (U+1FFFE, U+1FFFF) and the last code point of Unicode (U+10FFFF); and two surrogates
# (U+D800, U+DFFF), which are no characters at all and which a string cannot hold. Each such
# glyph is a drawn shape, so a test can see it. For the tests that the catalogue's glyph chart
# draws them without passing them to Cairo as text.
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
# The proofs fixtures' script builds its drawn fonts alike.
_spec = importlib.util.spec_from_file_location(
    "make_proof_fonts", os.path.join(HERE, "..", "make-proof-fonts.py"))
_proof_fonts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_proof_fonts)


def main():
    square = [(100, 0), (100, 600), (500, 600), (500, 0)]
    triangle = [(100, 0), (300, 700), (500, 0)]
    diamond = [(300, 0), (100, 350), (300, 700), (500, 350)]
    bar = [(250, 0), (250, 700), (350, 700), (350, 0)]
    shapes = [square, triangle, diamond, bar]
    mapping = {0x20: "space"}
    glyphs = {".notdef": square, "space": None}
    for i, letter in enumerate("ABCD"):
        glyphs[letter] = shapes[i]
        mapping[ord(letter)] = letter
    for i, code in enumerate([0xD800, 0xDFFF, 0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFE, 0x1FFFF, 0x10FFFF]):
        name = f"u{code:04X}"
        glyphs[name] = shapes[i % len(shapes)]
        mapping[code] = name
    fb = _proof_fonts.drawn_font(glyphs, mapping, "Noncharacter Test")
    path = os.path.join(HERE, "Noncharacters.ttf")
    fb.save(path)
    print(f"{path}: {os.path.getsize(path)} bytes")


main()
