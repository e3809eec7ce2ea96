import CPango
import FontTestSupport
import Foundation
import Testing

@testable import FontiDraw
@testable import FontiFonts
@testable import FontiModel
@testable import FontiText

/// A by-hand check, not part of the suite: with `FONTI_PROOFS_SYSTEM=1` it reads the proofs of
/// every installed family (with `FONTI_PROOFS_FIXTURES=1`, every fixture family; with
/// `FONTI_PROOFS_ONLY=text`, those whose name contains it; `FONTI_PROOFS_CONFIG=fonts.conf`
/// reads the fonts of another fontconfig file) and prints, per
/// family, the time taken and what was found; then the median and worst times. Build in
/// release for numbers that mean something (`swift build -c release --build-tests
/// -Xswiftc -enable-testing`, then run `.build/release/fonti-batchPackageTests.xctest
/// --testing-library swift-testing --filter systemProofs`). Times are the thread's CPU time.
@Test(.enabled(if: ProcessInfo.processInfo.environment["FONTI_PROOFS_SYSTEM"] != nil))
func systemProofs() throws {
  let env = ProcessInfo.processInfo.environment
  let configFile =
    env["FONTI_PROOFS_CONFIG"]
    ?? (env["FONTI_PROOFS_FIXTURES"] != nil ? TestFonts.proofsConfigFile : nil)
  let environment =
    try configFile.map { try FontEnvironment(configFile: $0) }
    ?? FontEnvironment.load(library: nil).0
  var families = environment.catalog.families.filter(\.isRenderable)
  if let only = env["FONTI_PROOFS_ONLY"] {
    families = families.filter { $0.name.localizedCaseInsensitiveContains(only) }
  }
  let verbose = env["FONTI_PROOFS_VERBOSE"] != nil
  var times: [(Double, String)] = []
  for family in families {
    // Thread CPU time: on a shared, loaded machine wall time says more about the neighbours.
    let start = threadCPUNanoseconds()
    let result = Result { () throws(ProofReadError) -> FamilyProofs in try ProofReader.read(family)
    }
    let ms = Double(threadCPUNanoseconds() - start) / 1e6
    times.append((ms, family.name))
    switch result {
    case .success(let proofs):
      let features = proofs.proofs.features ?? []
      let visible = features.filter(\.visible).count
      print(
        String(
          format: "%7.2f ms  %@: %d axes, %d instances, %d features (%d visible), %d faces",
          ms, family.name, proofs.proofs.axes?.count ?? 0, proofs.proofs.instances?.count ?? 0,
          features.count, visible, Set(family.faces.map { "\($0.file)#\($0.index & 0xFFFF)" }).count
        ))
      if verbose {
        for axis in proofs.proofs.axes ?? [] { print("    axis \(axis)") }
        for instance in proofs.proofs.instances ?? [] { print("    instance \(instance)") }
        for feature in features {
          let sample = proofs.sample(for: feature.tag)
          print(
            "    \(feature.tag) \(feature.tables) \(feature.name): "
              + (sample.map {
                "“\($0.text)”" + ($0.language.map { " [\($0)]" } ?? "") + " \($0.style)"
              }
                ?? "no visible effect on \(proofs.tried.filter { $0.tag == feature.tag }.map(\.text))")
          )
        }
        for w in proofs.warnings { print("    warning: \(w)") }
      }
    case .failure(let error):
      print(String(format: "%7.2f ms  %@: error %@", ms, family.name, error.description))
    }
  }
  let sorted = times.sorted { $0.0 < $1.0 }
  if let worst = sorted.last {
    let median = sorted[sorted.count / 2].0
    let total = sorted.reduce(0) { $0 + $1.0 }
    print(
      String(
        format: "%d families: median %.2f ms, worst %.2f ms (%@), total %.0f ms",
        sorted.count, median, worst.0, worst.1, total))
    for (ms, name) in sorted.suffix(5).reversed() {
      print(String(format: "  %.2f ms %@", ms, name))
    }
  }
}

private func threadCPUNanoseconds() -> UInt64 {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// A by-hand check, not part of the suite: with `FONTI_PROOFS_SHEET=/path.png` it draws, for
/// the fixture families (or `FONTI_PROOFS_ONLY`'s), every feature: its tag and name, then its
/// sample off and on, set by Pango with `pango_attr_font_features_new`; features with no
/// visible effect in grey. For looking at samples by eye.
@Test(.enabled(if: ProcessInfo.processInfo.environment["FONTI_PROOFS_SHEET"] != nil))
func proofsSampleSheet() throws {
  let env = ProcessInfo.processInfo.environment
  let output = try #require(env["FONTI_PROOFS_SHEET"])
  let environment =
    try env["FONTI_PROOFS_CONFIG"].map { try FontEnvironment(configFile: $0) }
    ?? TestFonts.proofsEnvironment()
  var families = environment.catalog.families.filter(\.isRenderable)
  if let only = env["FONTI_PROOFS_ONLY"] {
    families = families.filter { $0.name.localizedCaseInsensitiveContains(only) }
  }
  let read = try families.map { ($0, try ProofReader.read($0)) }
  let rows = read.reduce(0) { $0 + 1 + ($1.1.proofs.features?.count ?? 0) }
  let lineHeight = 40.0
  let surface = try CairoSurface.image(width: 1400, height: Int(Double(rows) * lineHeight) + 40)
  let cr = try CairoContext(surface)
  cr.setColour(Colour(hex: 0xFFFFFF))
  cr.paint()
  let renderer = SpecimenRenderer(environment: environment)
  var y = 20.0
  for (family, proofs) in read {
    let context = renderer.map(for: family).makeContext(for: cr)
    let label = FontSpec(family: "DejaVu Serif", size: 18)
    cr.setColour(Colour(hex: 0x000000))
    TextLayout(family.name, font: label, in: context).draw(at: 20, y)
    y += lineHeight
    for feature in proofs.proofs.features ?? [] {
      cr.setColour(Colour(hex: feature.visible ? 0x333333 : 0xAAAAAA))
      TextLayout(
        "\(feature.tag)  \(feature.name)", font: FontSpec(family: "DejaVu Serif", size: 13),
        in: context
      )
      .draw(at: 40, y + 8)
      if let sample = proofs.sample(for: feature.tag),
        let face = family.faces.first(where: { $0.file == sample.file && $0.index == sample.index })
      {
        for (x, value) in [(420.0, 0), (900.0, sample.on.value)] {
          cr.setColour(Colour(hex: value == 0 ? 0x666666 : 0x000000))
          let layout = TextLayout(
            sample.text, font: FontSpec(family: family.name, size: 28, face: face), in: context,
            language: sample.language ?? "en")
          if let current = pango_layout_get_attributes(layout.layout),
            let attributes = pango_attr_list_copy(current)
          {
            pango_attr_list_insert(
              attributes, pango_attr_font_features_new("\(sample.tag)=\(value)"))
            pango_layout_set_attributes(layout.layout, attributes)
            pango_attr_list_unref(attributes)
          }
          layout.draw(at: x, y)
        }
      }
      y += lineHeight
    }
  }
  try surface.writePNG(to: output, compression: .small, sync: false)
}
