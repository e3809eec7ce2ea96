// The fuzz targets' stand-in for fontconfig's orthographies (Languages/Orthographies.swift
// reads them through fontconfig, which the fuzzers do not link): a few languages, enough for
// the job decoder's language codes to be checked, told apart and suggested.

struct Orthographies: Sendable {
  struct Orthography: Sendable {
    var code: String
    var scalars: [UInt32]
  }

  static let shared = Orthographies()

  let all: [Orthography] = [
    ("de", "Aa\u{C4}\u{E4}"), ("en", "Aa"), ("fr", "Aa\u{C0}\u{E0}"), ("pl", "Aa\u{104}\u{105}"),
    ("sr", "\u{410}\u{430}"), ("vi", "Aa\u{1EA0}\u{1EA1}"), ("zh-tw", "\u{4E00}"),
  ].map { Orthography(code: $0.0, scalars: $0.1.unicodeScalars.map(\.value)) }

  var codes: [String] { all.map(\.code) }

  subscript(code: String) -> Orthography? { all.first { $0.code == code } }

  func scalars(of orthography: Orthography) -> [UInt32] { orthography.scalars }
}
