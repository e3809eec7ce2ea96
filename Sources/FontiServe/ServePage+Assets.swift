// The serve page's own style sheet and script, written for this tool (no library): the files
// `ServePage.css` and `ServePage.js` beside this one, built into the binary (`.embedInCode` in
// Package.swift: no bundle to install beside it) and inlined in the page. The page's
// Content-Security-Policy allows exactly these two texts, by the SHA-256 of these bytes.

extension ServePage {
  /// The style sheet: the gallery's look, in the job's theme (`data-theme` on the root:
  /// `ink` dark, `cream` light; before the state arrives, the reader's colour scheme).
  static let styleSheet = String(decoding: PackageResources.ServePage_css, as: UTF8.self)

  /// The script: the job's state (its limits and feature names among it) from `/api/state`
  /// and `/events`, the input bar and the URL state, the cards (fetched only while visible,
  /// newest settings first, crossfaded), the favourites, the full-screen view. Builds elements
  /// with `textContent` only.
  static let script = String(decoding: PackageResources.ServePage_js, as: UTF8.self)
}
