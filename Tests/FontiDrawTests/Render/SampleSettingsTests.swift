import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// A job's sample settings reach Pango: a feature and a coordinate change what is set, no
/// settings change nothing.
@Suite(.serialized) struct SampleSettingsTests {
  let environment: FontEnvironment
  let renderer: SpecimenRenderer
  let cr: CairoContext

  init() throws {
    environment = try TestFonts.proofsEnvironment()
    renderer = SpecimenRenderer(environment: environment)
    cr = try CairoContext(try CairoSurface.image(width: 64, height: 64))
  }

  func sample(_ family: String, _ settings: SampleSettings) throws -> TextLayout {
    let family = try #require(environment.catalog.family(named: family))
    let font = FontSpec(family: family.name, size: 48, face: family.regularFace)
    return TextLayout(
      sample: "Hamburgefonstiv 1/2", font: font, settings: settings,
      in: renderer.map(for: family).makeContext(for: cr))
  }

  @Test func aFeatureChangesTheText() throws {
    let plain = try sample("EB Garamond", .none).inkRect
    let smallCaps = try sample("EB Garamond", SampleSettings(features: [.init(tag: "smcp")]))
      .inkRect
    #expect(smallCaps.width > plain.width * 1.1, "small capitals are wider than lower case")
    let off = try sample("EB Garamond", SampleSettings(features: [.init(tag: "smcp", value: 0)]))
    #expect(off.inkRect.width == plain.width)
  }

  @Test func aCoordinateChangesTheText() throws {
    let regular = try sample("Inter", .none).inkRect
    let black = try sample("Inter", SampleSettings(variations: [.init(tag: "wght", value: 900)]))
    let thin = try sample("Inter", SampleSettings(variations: [.init(tag: "wght", value: 100)]))
    #expect(black.inkRect.width > regular.width)
    #expect(thin.inkRect.width < regular.width)
  }

  @Test func noSettingsSetTheTextAsBefore() throws {
    let family = try #require(environment.catalog.family(named: "Inter"))
    let font = FontSpec(family: family.name, size: 48, face: family.regularFace)
    let before = TextLayout(
      "Hamburgefonstiv 1/2", font: font, in: renderer.map(for: family).makeContext(for: cr))
    #expect(try sample("Inter", .none).inkRect == before.inkRect)
  }
}
