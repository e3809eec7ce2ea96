#!/usr/bin/python3
"""Makes the web font fixtures of this folder, once, with Debian's python3-fonttools and
python3-brotli (`make setup-test` installs both): a WOFF and a WOFF2 of the example job's
DejaVu Sans subset (TrueType outlines: WOFF2 transforms its glyf and loca), and hostile web
fonts made from them, each damaged in one known way. The product and the tests never run it.

    /usr/bin/python3 Tests/Fixtures/WebFonts/make-fonts.py
"""
import os
import struct

from fontTools.ttLib import TTFont

here = os.path.dirname(os.path.abspath(__file__))
source = os.path.join(here, "..", "ExampleFonts", "DejaVuSans-Subset.ttf")


def save(flavor):
    font = TTFont(source, recalcTimestamp=False)
    font.flavor = flavor
    path = os.path.join(here, f"DejaVuSans-Subset.{flavor}")
    font.save(path, reorderTables=False)
    with open(path, "rb") as f:
        return bytearray(f.read())


woff = save("woff")
woff2 = save("woff2")
hostile = os.path.join(here, "hostile")
os.makedirs(hostile, exist_ok=True)


def write(name, data):
    with open(os.path.join(hostile, name), "wb") as f:
        f.write(bytes(data))


# Cut in half: the header's length is no longer the file's.
write("truncated.woff2", woff2[: len(woff2) // 2])
# Not a web font's signature, under a web font's name.
write("bad-signature.woff2", b"wOFX" + woff2[4:])
# WOFF: totalSfntSize (offset 16) says 4 bytes more than the tables make.
lie = bytearray(woff)
struct.pack_into(">I", lie, 16, struct.unpack_from(">I", lie, 16)[0] + 4)
write("size-lie.woff", lie)
# WOFF2: the brotli stream of the tables overwritten in its middle (the header, the table
# directory and the stream's length are intact).
corrupt = bytearray(woff2)
middle = len(corrupt) // 2
corrupt[middle : middle + 64] = bytes((i * 37 + 11) & 0xFF for i in range(64))
write("corrupt-brotli.woff2", corrupt)
# WOFF: a zlib-compressed table's bytes overwritten (the cmap, the first compressed table).
zlib_damaged = bytearray(woff)
tables = struct.unpack_from(">H", woff, 12)[0]
for i in range(tables):
    tag, offset, compressed, original, _ = struct.unpack_from(">4sIIII", woff, 44 + 20 * i)
    if compressed < original:
        zlib_damaged[offset + 2 : offset + compressed] = bytes(compressed - 2)
        break
write("corrupt-zlib.woff", zlib_damaged)
# WOFF2: a bomb, a header that says the font decodes to 100 MiB.
bomb = bytearray(woff2)
struct.pack_into(">I", bomb, 16, 100 << 20)
write("bomb.woff2", bomb)
