/// The limits every input is held to, in one table: the job decoder, `render`, `serve`'s card
/// requests and its page (which reads them from `/api/state`) check these and name them in
/// their messages.
public enum Limits {
  /// A sample's size in points: `defaults.size`, `render --size`, a card's `size`.
  public static let sampleSize = 12.0...96.0
  /// The pixel scale of a picture: `png.scale`, `render --scale`, a card's `scale`.
  public static let scale = 1...3
  public static let waterfallSize = 4.0...400.0
  public static let waterfallCount = 32
  /// Items of `styles:`.
  public static let styleCount = 64
  /// Characters in a face name (`styles:` items, `render --face`, a card's `face`).
  public static let faceNameLength = 128
  /// Characters in a sample text: `defaults.text`, `texts`, `--text`, a card's `text`.
  public static let textLength = 2_000
  /// Code points in a sample text: four per character on average. Without it, one
  /// "character" of 300,000 combining marks passes `textLength` and takes minutes to shape.
  public static let textCodePoints = 8_000
  public static let textCount = 50
  /// Characters in a language tag (`defaults.language`, `--language`, a card's `lang`).
  public static let languageTagLength = 64
  /// The side of a specimen's square in px before its scale: `png.edge`.
  public static let edge = 256...4096
  /// The side of one drawn on request, `render --edge` and a card's `edge`: down to the 64 px
  /// at which a zoomed-out grid shows its cards, drawn the size they are seen.
  public static let requestedEdge = 64...4096
  /// The side of a picture in px, edge × scale.
  public static let pixels = 8192

  /// Why a square of `edge` px at `scale` is too large ("is 4096 × 3 = 12,288 px, over the
  /// limit of 8,192 px"), or nil when it is not.
  public static func pixelsProblem(edge: Int, scale: Int) -> String? {
    guard edge * scale > pixels else { return nil }
    return "is \(edge) × \(scale) = \(grouped(edge * scale)) px, "
      + "over the limit of \(grouped(pixels)) px"
  }

  /// `scale`'s values as a message lists them: "1, 2 or 3".
  public static var scaleChoices: String {
    let values = scale.map(String.init)
    return values.dropLast().joined(separator: ", ") + " or " + (values.last ?? "")
  }

  /// Why `text` is too long for a sample text (naming the limit), or nil when it is not.
  public static func sampleTextProblem(_ text: String) -> String? {
    let characters = text.count
    if characters > textLength {
      return "is \(grouped(characters)) characters long; the limit is \(grouped(textLength))"
    }
    let codePoints = text.unicodeScalars.count
    if codePoints > textCodePoints {
      return "has \(grouped(codePoints)) Unicode code points (accents and marks count); "
        + "the limit is \(grouped(textCodePoints))"
    }
    return nil
  }
}
