import Foundation
import TestSupport
import Testing

@testable import FontiFonts

/// Unicode blocks from Debian's unicode-data (`/usr/share/unicode/Blocks.txt`).
@Suite struct UnicodeBlocksTests {
  @Test func looksUpBlocks() throws {
    let blocks = UnicodeBlocks.shared
    #expect(blocks.blocks.count > 300)
    #expect(blocks.block(of: 0x41)?.name == "Basic Latin")
    #expect(blocks.block(of: 0x41)?.range == 0x0000...0x007F)
    #expect(blocks.block(of: 0x1EA0)?.name == "Latin Extended Additional")
    #expect(blocks.block(of: 0x09A0)?.name == "Bengali")
    #expect(blocks.block(of: 0x1F600)?.name == "Emoticons")
    #expect(blocks.block(of: 0x10FFFF)?.name == "Supplementary Private Use Area-B")
    #expect(blocks.block(of: 0x2FE0) == nil)  // between Kangxi Radicals and Ideographic Description
    #expect(blocks.block(of: 0x110000) == nil)
  }

  @Test func groupsInBlockOrder() {
    let groups = UnicodeBlocks.shared.group([0x1EA1, 0x42, 0x41, 0x2FE0, 0x0100, 0x41, 0x1EA0])
    #expect(
      groups.map(\.name) == [
        "Basic Latin", "Latin Extended-A", "Latin Extended Additional", UnicodeBlocks.noBlockName,
      ])
    #expect(groups.map(\.codePoints) == [[0x41, 0x42], [0x100], [0x1EA0, 0x1EA1], [0x2FE0]])
    #expect(groups[2].range == 0x1E00...0x1EFF)
    #expect(groups[3].range == nil)
    #expect(UnicodeBlocks.shared.group([]).isEmpty)
  }

  @Test func withoutTheFileEverythingIsOneUnknownBlock() {
    let blocks = UnicodeBlocks(file: "/nonexistent/Blocks.txt")
    #expect(blocks.blocks.isEmpty)
    #expect(blocks.block(of: 0x41) == nil)
    let groups = blocks.group([0x1EA0, 0x41])
    #expect(
      groups == [
        .init(name: UnicodeBlocks.unknownBlockName, range: nil, codePoints: [0x41, 0x1EA0])
      ])
  }

  @Test func damagedFilesDoNotCrash() throws {
    let text = """
      # comment
      0000..007F; Basic Latin
      0080..00FF;Latin-1 Supplement # trailing comment
      0100..017F
      017F..0100; Backwards
      0150..0160; Overlaps Latin Extended-A
      0100..017F; Latin Extended-A
      ZZZZ..0200; Not hex
      0300..0400..0500; Three ends
      0600..0700; \u{1B}[31mRed\u{7}
      110000..110010; Beyond Unicode
      FFFFFFFFFF..FFFFFFFFFF; Overflow
      +0800..0900; Signed
      0A00..0A7F;
      ;
      ..
      \r\n0B00..0B7F; Oriya\r
      """
    let blocks = UnicodeBlocks(text: text)
    #expect(
      blocks.blocks.map(\.name) == [
        "Basic Latin", "Latin-1 Supplement", "Latin Extended-A", "\u{FFFD}[31mRed\u{FFFD}", "Oriya",
      ])
    #expect(blocks.block(of: 0x0155)?.name == "Latin Extended-A")
    #expect(UnicodeBlocks(text: "").blocks.isEmpty)
    #expect(UnicodeBlocks(text: String(repeating: "\u{0}..;", count: 1000)).blocks.isEmpty)

    let folder = try TemporaryDirectory()
    try Data([0xFF, 0xFE, 0x30, 0x30, 0x00]).write(to: URL(fileURLWithPath: folder.file("b.txt")))
    #expect(UnicodeBlocks(file: folder.file("b.txt")).blocks.isEmpty)
    #expect(UnicodeBlocks(file: folder.path).blocks.isEmpty)  // a folder
  }
}
