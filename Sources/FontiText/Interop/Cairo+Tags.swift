internal import CCairo

/// A PDF's structure: the elements a screen reader and a search read the page by. Cairo 1.16
/// writes the tree from `cairo_tag_begin` and `cairo_tag_end` (the content drawn between them
/// becomes the element's marked content); what it cannot write (languages, alternative text)
/// is recorded in `tagging` for the finishing step.
///
/// Untagged drawing (PNGs, and a PDF before `beginDocument`) calls none of this: every method
/// draws `body` alone then.
extension CairoContext {
  /// Starts the document's structure: a Document element that every later element is part
  /// of, in `language` (the tool's own words'). Call once, before the first page is drawn.
  ///
  /// The Document element itself is begun with the first element inside it: Cairo records a
  /// page's drawing and forgets everything recorded before an opaque paint of the whole page
  /// (a page's background), the beginning of an element included. An element begun before
  /// such a paint is missing from the tree, which the finishing step then refuses.
  package func beginDocument(language: String = PDFTagging.interfaceLanguage) {
    precondition(tagging == nil, "the document's structure is begun once")
    tagging = PDFTagging(language: language)
    documentPending = true
  }

  /// Ends the Document element (after the last page) and returns what the finishing step
  /// needs to complete the tree.
  package func endDocument() -> PDFTagging? {
    guard tagging != nil else { return nil }
    if !documentPending { end(.document) }
    documentPending = false
    return tagging
  }

  /// Draws `body` as a top-level heading (H1): a family's name on its page, a section's title.
  package func heading(_ body: () -> Void) {
    element(.heading, body)
  }

  /// Draws `body` as a figure whose alternative text is `alt` (what it shows, in words).
  package func figure(alt: String, _ body: () -> Void) {
    element(.figure, alt: alt, body)
  }

  /// Draws `body` as a paragraph in `language` (nil: the document's), unless it is drawn inside
  /// another element (a heading, a link, a figure, a paragraph), whose content it then is.
  /// `actualText`: the words of text drawn as outlines. Every `TextLayout` draws itself so.
  package func paragraph(language: String?, actualText: String? = nil, _ body: () -> Void) {
    guard tagging != nil, openElements.last == .document || openElements.isEmpty else {
      return body()
    }
    element(.paragraph, language: language, actualText: actualText, body)
  }

  private func element(
    _ role: PDFTagging.Role, alt: String? = nil, language: String? = nil,
    actualText: String? = nil, _ body: () -> Void
  ) {
    guard tagging != nil else { return body() }
    begin(role, alt: alt, language: language, actualText: actualText)
    body()
    end(role)
  }

  /// Calls `cairo_tag_begin` with a structure tag (Cairo 1.16 reads no attribute of one but a
  /// link's), and records the element; the pending Document element first.
  func begin(
    _ role: PDFTagging.Role, alt: String? = nil, language: String? = nil,
    actualText: String? = nil, attributes: String = ""
  ) {
    if documentPending && role != .document {
      documentPending = false
      begin(.document)
    }
    tagging?.begin(role, alt: alt, language: language, actualText: actualText)
    openElements.append(role)
    cairo_tag_begin(pointer, role.rawValue, attributes)
  }

  /// Calls `cairo_tag_end`; elements end in the order opposite to their beginning.
  func end(_ role: PDFTagging.Role) {
    precondition(openElements.last == role, "structure elements nest")
    openElements.removeLast()
    cairo_tag_end(pointer, role.rawValue)
  }
}
