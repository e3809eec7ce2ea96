import FontiFonts
import FontiModel
import FontiSupport
import FontiText

/// What one family's proof pages show (`proofs:`), read from its fonts by the catalogue writer
/// before it plans, so that the plan knows how many pages each family's proofs take. A proof the
/// job turns off stays nil; a proof that cannot be read says why in `problems` and shows that.
public struct CatalogueProofData: Sendable, Equatable {
  /// Axes, instances and features, with the feature samples (`proofs.axes` or
  /// `proofs.features`); nil when both are off or the regular face cannot be read.
  public var proofs: FamilyProofs?
  /// Whether the axes (and instances) are shown, and the features.
  public var showsAxes: Bool
  public var showsFeatures: Bool
  /// Supported and nearly supported languages (`proofs.languages`).
  public var languages: LanguageCoverage?
  /// The regular face's encoded characters, ascending (`proofs.glyphs`).
  public var characters: [UInt32]?
  /// What could not be read, said on the proof page.
  public var problems: [String]
  /// Each visible feature's sample, by tag: the ink of its two settings together (for rows as
  /// tall as stacked marks and tall forms need: `CataloguePlan.featureRoom`).
  public var featureInk: [String: LineInk] = [:]

  public init(
    proofs: FamilyProofs? = nil, showsAxes: Bool = false, showsFeatures: Bool = false,
    languages: LanguageCoverage? = nil, characters: [UInt32]? = nil, problems: [String] = []
  ) {
    self.proofs = proofs
    self.showsAxes = showsAxes
    self.showsFeatures = showsFeatures
    self.languages = languages
    self.characters = characters
    self.problems = problems
  }

  /// Reads what `options` asks of `family` (HarfBuzz for axes, features and the cmap;
  /// fontconfig's orthographies for languages). Never throws: a face that cannot be read is a
  /// problem shown on the page.
  public static func read(_ family: FontFamily, options: ProofOptions) -> CatalogueProofData {
    var data = CatalogueProofData()
    if options.axes || options.features {
      do {
        data.proofs = try ProofReader.read(family)
        data.showsAxes = options.axes
        data.showsFeatures = options.features
        // Each face the samples were found in is opened once (most are all the regular's).
        var fonts: [String: HarfBuzzFont?] = [:]
        for sample in data.visibleFeatures {
          let key = "\(sample.index):\(sample.file)"
          if fonts[key] == nil {
            fonts[key] = (try? HarfBuzzFace(file: sample.file, index: sample.index))
              .map(HarfBuzzFont.init(face:))
          }
          guard let font = fonts[key] ?? nil else { continue }
          let inks = [sample.off, sample.on].map { setting in
            LineInk.measure(
              sample.text, font: font, language: sample.language ?? "en",
              features: [(HarfBuzzTag.make(setting.tag), UInt32(max(0, setting.value)))],
              ranges: setting.isOn ? sample.ranges : nil)
          }
          data.featureInk[sample.tag] = LineInk(glyphs: inks.flatMap(\.glyphs))
        }
      } catch {
        data.problems.append(Sanitize.terminal("Axes and features cannot be read: \(error)"))
      }
    }
    if options.languages { data.languages = LanguageCoverage(family: family) }
    if options.glyphs {
      do {
        data.characters = try EncodedCharacters.ofRegularFace(family)
      } catch {
        data.problems.append(Sanitize.terminal("The glyph chart cannot be drawn: \(error)"))
      }
    }
    return data
  }

  /// Whether the proofs asked for found nothing to show: no axis or named instance, no layout
  /// feature, no language supported or nearly, and nothing that could not be read. Such a
  /// family gets no proof page (a page saying only "no language" for each of a library's
  /// symbol and ancient-script families); its header says `nothingFound` instead.
  public var findsNothing: Bool {
    guard problems.isEmpty, showsAxes || showsFeatures || languages != nil else { return false }
    if showsAxes,
      !(proofs?.proofs.axes ?? []).isEmpty || !(proofs?.proofs.instances ?? []).isEmpty
    {
      return false
    }
    if showsFeatures, !(proofs?.proofs.features ?? []).isEmpty { return false }
    if let languages, !languages.supported.isEmpty || !languages.nearly.isEmpty { return false }
    return true
  }

  /// What the proofs found, when they found nothing: "proofs: static, no layout features,
  /// covers no language fontconfig knows" (a symbol font, or a script fontconfig has no
  /// orthography for: Chakma, Kaithi, Ol Chiki).
  public var nothingFound: String {
    var parts: [String] = []
    if showsAxes { parts.append("static") }
    if showsFeatures { parts.append("no layout features") }
    if languages != nil { parts.append("covers no language fontconfig knows") }
    return "proofs: " + parts.joined(separator: ", ")
  }

  /// The axes a sweep shows: every axis but the hidden ones, when axes are shown.
  public var sweptAxes: [FontProofs.Axis] {
    guard showsAxes, let proofs else { return [] }
    let hidden = Set(proofs.hiddenAxes)
    return (proofs.proofs.axes ?? []).filter { !hidden.contains($0.tag) }
  }

  /// The named instances shown, when axes are shown.
  public var instances: [FontProofs.Instance] {
    guard showsAxes, let proofs, !sweptAxes.isEmpty || !(proofs.proofs.axes ?? []).isEmpty
    else { return [] }
    return proofs.proofs.instances ?? []
  }

  /// The features shown off and on, in tag order: each listed feature with a sample.
  public var visibleFeatures: [FeatureSample] {
    guard showsFeatures, let proofs else { return [] }
    let listed = Set((proofs.proofs.features ?? []).filter(\.visible).map(\.tag))
    return proofs.samples.filter { listed.contains($0.tag) }
  }

  /// The features listed as having no visible effect on the tried text, in tag order.
  public var invisibleFeatures: [FontProofs.Feature] {
    guard showsFeatures, let proofs else { return [] }
    let shown = Set(visibleFeatures.map(\.tag))
    return (proofs.proofs.features ?? []).filter { !shown.contains($0.tag) }
  }

  /// The texts tried for feature `tag`, each once, in order.
  public func tried(_ tag: String) -> [String] {
    var seen = Set<String>()
    return (proofs?.tried ?? []).filter { $0.tag == tag }.map(\.text).filter {
      seen.insert($0).inserted
    }
  }
}
