internal import CCairo

/// Glyph outlines drawn as Cairo paths, and coverage images compared pixel by pixel: what
/// `diff` needs from Cairo beyond the text the rest of the tool draws through Pango.
extension CairoContext {
  /// Grey antialiasing, whatever the surface's default (calls `cairo_set_antialias` with
  /// `CAIRO_ANTIALIAS_GRAY`): glyph images are compared as coverage, never as subpixels.
  package func setGreyAntialias() {
    cairo_set_antialias(pointer, CAIRO_ANTIALIAS_GRAY)
  }

  /// Appends `outline` to the current path: font units (y up) placed with the pen at
  /// (x, y) in user space (y down), `scale` user units per font unit.
  package func append(_ outline: GlyphOutline, x: Double, y: Double, scale: Double) {
    let place: (Double, Double) -> (Double, Double) = { (x + $0 * scale, y - $1 * scale) }
    outline.forEachSegment(place) { segment in
      switch segment {
      case .move(let px, let py): cairo_move_to(pointer, px, py)
      case .line(let px, let py): cairo_line_to(pointer, px, py)
      case .cubic(let x1, let y1, let x2, let y2, let x3, let y3):
        cairo_curve_to(pointer, x1, y1, x2, y2, x3, y3)
      case .close: cairo_close_path(pointer)
      }
    }
  }

  /// Restricts drawing to the current path (calls `cairo_clip`); undone by `restore`.
  package func clip() { cairo_clip(pointer) }

  /// Fills the current path and keeps it (calls `cairo_fill_preserve`).
  func fillPreserve() { cairo_fill_preserve(pointer) }

  /// Dashes for the next strokes; an empty list draws solid lines (calls `cairo_set_dash`).
  package func setDash(_ lengths: [Double]) {
    cairo_set_dash(pointer, lengths, Int32(lengths.count), 0)
  }
}

extension CairoSurface {
  /// For two coverage images of the same size: how many pixels differ by more than
  /// `tolerance` grey levels.
  package func countDifferences(from other: CairoSurface, tolerance: Int) -> Int {
    cairo_surface_flush(pointer)
    cairo_surface_flush(other.pointer)
    guard let a = cairo_image_surface_get_data(pointer),
      let b = cairo_image_surface_get_data(other.pointer), width == other.width,
      height == other.height
    else { return 0 }
    let stride = Int(cairo_image_surface_get_stride(pointer))
    let otherStride = Int(cairo_image_surface_get_stride(other.pointer))
    var count = 0
    for row in 0..<height {
      let p = a + row * stride
      let q = b + row * otherStride
      for column in 0..<width where abs(Int(p[column]) - Int(q[column])) > tolerance {
        count += 1
      }
    }
    return count
  }

  /// For two coverage images of the same size: how many pixels of either lie more than
  /// `tolerance` grey levels outside the range of the other image's pixels within `reach`
  /// pixels of them (a square of 2 × `reach` + 1 on a side). An edge moved by less than `reach`
  /// pixels paints no difference; ink added, removed or moved further does. Counting stops past
  /// `limit` (a count over it is all a caller with a threshold needs).
  package func countDifferences(
    from other: CairoSurface, tolerance: Int, reach: Int, limit: Int = .max
  ) -> Int {
    cairo_surface_flush(pointer)
    cairo_surface_flush(other.pointer)
    guard let a = cairo_image_surface_get_data(pointer),
      let b = cairo_image_surface_get_data(other.pointer), width == other.width,
      height == other.height, reach >= 0
    else { return 0 }
    let strides = (
      Int(cairo_image_surface_get_stride(pointer)),
      Int(cairo_image_surface_get_stride(other.pointer))
    )
    func outside(
      _ p: UnsafeMutablePointer<UInt8>, _ ps: Int, _ q: UnsafeMutablePointer<UInt8>, _ qs: Int,
      _ row: Int, _ column: Int
    ) -> Bool {
      let value = Int(p[row * ps + column])
      var low = 255
      var high = 0
      for r in max(0, row - reach)...min(height - 1, row + reach) {
        for c in max(0, column - reach)...min(width - 1, column + reach) {
          let level = Int(q[r * qs + c])
          low = min(low, level)
          high = max(high, level)
        }
      }
      return value < low - tolerance || value > high + tolerance
    }
    var count = 0
    for row in 0..<height {
      let p = a + row * strides.0
      let q = b + row * strides.1
      for column in 0..<width {
        // A pixel within `tolerance` of the other side's same pixel lies in that side's range:
        // only pixels that differ where they are need their neighbourhoods (most pixels of two
        // drawings of one glyph are the same 0 or 255).
        guard abs(Int(p[column]) - Int(q[column])) > tolerance else { continue }
        if outside(a, strides.0, b, strides.1, row, column)
          || outside(b, strides.1, a, strides.0, row, column)
        {
          count += 1
          if count > limit { return count }
        }
      }
    }
    return count
  }
}
