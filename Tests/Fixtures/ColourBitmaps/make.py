#!/usr/bin/python3
# Makes DamagedBitmaps.ttf once (run by hand, never by the tests), with fontTools: a tiny drawn
# font, family "Damaged Bitmap Test", whose glyphs A-D also have colour bitmaps (CBDT/CBLC, one
# strike of 16 ppem, PNG images of format 17). A and D are sound 16x16 PNGs; B's PNG header
# says a height of 0x31000080 (the damage that makes pixman spin for minutes); C's image says
# its PNG is 2 GB long, past the end of CBDT. For the tests that such bitmaps are found before Cairo sees them.
import importlib.util
import os
import struct
import zlib

from fontTools.ttLib.tables.DefaultTable import DefaultTable

HERE = os.path.dirname(os.path.abspath(__file__))
# The proofs fixtures' script builds its drawn fonts alike.
_spec = importlib.util.spec_from_file_location(
    "make_proof_fonts", os.path.join(HERE, "..", "make-proof-fonts.py"))
_proof_fonts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_proof_fonts)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, rgba=(200, 40, 40, 255)):
    """A whole RGBA PNG of one colour."""
    rows = b"".join(b"\0" + bytes(rgba) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def image17(data, length=None):
    # smallGlyphMetrics: height, width, bearingX, bearingY, advance; then the PNG's length.
    return struct.pack(">BBbbBI", 16, 16, 0, 14, 16, length or len(data)) + data


def tables(first, last):
    sound = png(16, 16)
    damaged = bytearray(sound)
    damaged[20:24] = struct.pack(">I", 0x31000080)  # IHDR's height
    images = [image17(sound), image17(bytes(damaged)), image17(sound, 0x7FFFFFF0),
              image17(png(16, 16, (40, 40, 200, 255)))]
    cbdt = bytearray(struct.pack(">HH", 3, 0))
    offsets = []
    for image in images:
        offsets.append(len(cbdt))
        cbdt += image
    offsets.append(len(cbdt))
    # Index subtable format 1 (u32 offsets from imageDataOffset 0), image format 17.
    subtable = struct.pack(">HHI", 1, 17, 0) + b"".join(struct.pack(">I", o) for o in offsets)
    array = struct.pack(">HHI", first, last, 8)  # one subtable, right after the array entry
    line = struct.pack(">bbBbbbbbbbbb", 14, -2, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    size = (struct.pack(">IIII", 8 + 48, len(array) + len(subtable), 1, 0) + line + line
            + struct.pack(">HHBBBb", first, last, 16, 16, 32, 1))
    cblc = struct.pack(">HHI", 3, 0, 1) + size + array + subtable
    return bytes(cblc), bytes(cbdt)


def main():
    square = [(100, 0), (100, 600), (500, 600), (500, 0)]
    mapping = {0x20: "space"}
    glyphs = {".notdef": square, "space": None}
    for letter in "ABCD":
        glyphs[letter] = square
        mapping[ord(letter)] = letter
    fb = _proof_fonts.drawn_font(glyphs, mapping, "Damaged Bitmap Test")
    cblc, cbdt = tables(2, 5)  # A..D are glyphs 2..5
    for tag, data in (("CBLC", cblc), ("CBDT", cbdt)):
        fb.font[tag] = _raw(tag, data)
    path = os.path.join(HERE, "DamagedBitmaps.ttf")
    fb.save(path)
    print(f"{path}: {os.path.getsize(path)} bytes")


def _raw(tag, data):
    """A table of exactly these bytes."""
    table = DefaultTable(tag)
    table.data = data
    return table


main()
