/// The app's small shapes, as paths on a Cairo context; the caller fills or strokes them.
extension CairoContext {
  /// The favourites heart: `size` tall, its top at `top`, centred on `centreX`.
  package func heartPath(centreX x: Double, top y: Double, size s: Double) {
    newPath()
    move(to: x, y + s * 0.95)
    curve(x - s * 0.55, y + s * 0.6, x - s * 0.55, y + s * 0.05, x - s * 0.25, y + s * 0.05)
    curve(x - s * 0.08, y + s * 0.05, x, y + s * 0.2, x, y + s * 0.28)
    curve(x, y + s * 0.2, x + s * 0.08, y + s * 0.05, x + s * 0.25, y + s * 0.05)
    curve(x + s * 0.55, y + s * 0.05, x + s * 0.55, y + s * 0.6, x, y + s * 0.95)
    close()
  }

  /// A rectangle with rounded corners of radius `r` (the style badges, the Saved cards).
  package func roundedRectanglePath(
    _ x: Double, _ y: Double, _ w: Double, _ h: Double, radius r: Double
  ) {
    newPath()
    move(to: x + r, y)
    line(to: x + w - r, y)
    curve(x + w, y, x + w, y, x + w, y + r)
    line(to: x + w, y + h - r)
    curve(x + w, y + h, x + w, y + h, x + w - r, y + h)
    line(to: x + r, y + h)
    curve(x, y + h, x, y + h, x, y + h - r)
    line(to: x, y + r)
    curve(x, y, x, y, x + r, y)
    close()
  }
}
