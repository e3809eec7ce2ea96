#!/usr/bin/python3
# Makes WideName.ttf once: the Droid Sans Fallback subset of ../NoSpaceScripts renamed to a
# family whose name is Japanese (two terminal cells a character), for the test that the
# `families` table lines up after such a name.
import os
from fontTools.ttLib import TTFont

here = os.path.dirname(os.path.abspath(__file__))
font = TTFont(os.path.join(here, "../NoSpaceScripts/DroidSansFallback-Japanese.ttf"))
name = font["name"]
family = "明朝テスト"
for record in list(name.names):
    if record.nameID in (1, 4, 6, 16, 17, 18, 21, 22):
        name.removeNames(nameID=record.nameID)
# Windows names only: a Mac Roman name cannot hold Japanese.
windows = (3, 1, 0x409)
name.setName(family, 1, *windows)
name.setName("Regular", 2, *windows)
name.setName(family + " Regular", 4, *windows)
name.setName("MinchoTest-Regular", 6, *windows)
font.save(os.path.join(here, "WideName.ttf"))
