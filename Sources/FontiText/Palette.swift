import FontiModel

/// The app's colours for each theme: ink (dark) and its light inverse, cream.
public struct Palette: Sendable, Hashable {
  public var background: Colour
  public var text: Colour
  public var accent: Colour

  public init(_ theme: Theme) {
    switch theme {
    case .ink:
      background = Colour(hex: 0x0D0D0D)
      text = Colour(hex: 0xF3EBDD)
      accent = Colour(hex: 0xF0A830)
    case .cream:
      background = Colour(hex: 0xF3EBDD)
      text = Colour(hex: 0x0D0D0D)
      // A deeper amber: the bright one is too faint on cream paper.
      accent = Colour(hex: 0xB8740A)
    }
  }

  /// `colour` (the text's unless said) at `alpha` laid over `base` (the background unless said):
  /// the opaque colour a viewer shows there. Printed pages (catalogues, diff reviews) set their
  /// greys so: a translucent colour costs the PDF a graphics state per alpha on every page it is
  /// on (ten a catalogue page, each held in memory by qpdf as it finishes the file), and prints
  /// with transparency. Opaque, the page looks the same.
  package func ink(_ alpha: Double, of colour: Colour? = nil, over base: Colour? = nil) -> Colour {
    (colour ?? text).laid(alpha, over: base ?? background)
  }
}
