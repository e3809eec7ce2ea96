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
}
