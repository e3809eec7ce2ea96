import FontiText
import Foundation
import TestSupport

// Swift Testing is there for the tests only (a release build of the package has none): this
// file is empty there.
#if canImport(Testing)
  import Testing

  extension Golden {
    /// Compares the PNG at `actual` with `Goldens/<name>.png`, per channel within `tolerance`.
    /// On failure writes expected, actual and diff images to .build/golden-diffs/.
    package static func checkImage(_ actual: String, named name: String, tolerance: Int = 2) throws
    {
      let golden = folder + "/" + name + ".png"
      if recording {
        _ = try? FileManager.default.removeItem(atPath: golden)
        try FileManager.default.copyItem(atPath: actual, toPath: golden)
        Issue.record("recorded golden \(name).png; run again without FONTI_RECORD_GOLDENS")
        return
      }
      guard let expected = RasterImage.load(png: golden) else {
        Issue.record("missing golden \(golden); record it with FONTI_RECORD_GOLDENS=1")
        return
      }
      guard let image = RasterImage.load(png: actual) else {
        Issue.record("\(actual) is not a readable PNG")
        return
      }
      guard let (maximum, diff) = expected.difference(image) else {
        Issue.record(
          "\(name): size \(image.width)×\(image.height), expected \(expected.width)×\(expected.height)"
        )
        return
      }
      if maximum > tolerance {
        try FileManager.default.createDirectory(atPath: diffs, withIntermediateDirectories: true)
        expected.write(png: "\(diffs)/\(name)-expected.png")
        image.write(png: "\(diffs)/\(name)-actual.png")
        diff.write(png: "\(diffs)/\(name)-diff.png")
        Issue.record(
          "\(name): pixels differ by up to \(maximum) (tolerance \(tolerance)); see \(diffs)/\(name)-diff.png"
        )
      }
    }
  }
#endif
