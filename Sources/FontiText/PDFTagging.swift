/// What a PDF's structure tree says beyond what Cairo 1.16 writes into it.
///
/// Cairo writes the tree itself (`cairo_tag_begin`: Document, H1, P, Figure, Link), but it
/// ignores the attributes of a structure tag and has no call for a document's language. So the
/// drawing records here every structure element it begins, in order, and a note for each one
/// that needs more: the text's language (/Lang), a figure's alternative text (/Alt), the text of
/// a line drawn as outlines (/ActualText). The finishing step (`PDFRewriter`) walks the tree
/// Cairo wrote in the same order, checks that it holds exactly these elements, and writes the
/// notes into them, with the document's /Lang. Catalogues are drawn and finished in different
/// processes: the value travels between them as JSON, so it holds only the notes, never an
/// entry for every element.
package struct PDFTagging: Codable, Sendable, Hashable {
  /// A structure element's type, as Cairo 1.16 names it (and writes it as /S).
  package enum Role: String, Codable, Sendable {
    case document = "Document"
    case heading = "H1"
    case paragraph = "P"
    case figure = "Figure"
    case link = "Link"
  }

  /// What one element gets beyond its type.
  package struct Note: Codable, Sendable, Hashable {
    /// The element's place among all the elements begun, from 0, depth first.
    package var element: Int
    package var role: Role
    /// /Alt: what a figure shows, in words.
    package var alt: String?
    /// /Lang: the language of the element's text, where it differs from the document's.
    package var language: String?
    /// /ActualText: the text of a line drawn as outlines, which has no text of its own.
    package var actualText: String?
  }

  /// The document's language (the catalog's /Lang): the language of the tool's own words.
  package var language: String
  /// How many structure elements were begun.
  package private(set) var elements = 0
  package private(set) var notes: [Note] = []

  package init(language: String) {
    self.language = language
  }

  /// Records the next element begun and what it needs; a language equal to the document's is
  /// left to be inherited.
  mutating func begin(_ role: Role, alt: String?, language: String?, actualText: String?) {
    // BCP 47 separates with hyphens; Pango and fontconfig accept "zh_TW" too.
    let own = language.flatMap {
      PDFTagging.same($0, self.language) ? nil : $0.replacingOccurrences(of: "_", with: "-")
    }
    if alt != nil || own != nil || actualText != nil {
      notes.append(
        Note(element: elements, role: role, alt: alt, language: own, actualText: actualText))
    }
    elements += 1
  }

  /// Whether two language tags name the same language (BCP 47 tags are case-insensitive;
  /// fontconfig writes `zh-tw`, Pango accepts `zh_TW`).
  static func same(_ a: String, _ b: String) -> Bool {
    func normal(_ tag: String) -> String {
      tag.lowercased().replacingOccurrences(of: "_", with: "-")
    }
    return normal(a) == normal(b)
  }

  /// The language the tool's own words are in: labels, captions, headings.
  package static let interfaceLanguage = "en"
}
