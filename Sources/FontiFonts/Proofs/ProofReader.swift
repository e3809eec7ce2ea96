import FontiModel
import FontiText

/// A family's font file that cannot be read for proofs.
public struct ProofReadError: Error, Sendable, Equatable, CustomStringConvertible {
  public var file: String
  public var reason: String
  public var description: String { "font file '\(file)' \(reason)" }
}

/// Reads axes, named instances and layout features straight from a family's font files with
/// HarfBuzz (`HarfBuzzFace(file:index:)`), so that what it reports does not depend on
/// fontconfig's state; and finds a sample for each feature (`FeatureSampler`).
///
/// Axes and instances come from the regular face (roman, default weight; for a variable font
/// its default instance); features are the union over the family's faces, each tag once.
/// Synchronous, on the calling thread; nothing is cached between calls.
public enum ProofReader {
  /// Distinct feature tags sampled per family; a hostile font listing thousands of tags gets
  /// the rest listed as not visible, untried.
  static let featureLimit = 160
  /// Faces a feature is sampled in: the first that has it (the regular face when it does) and
  /// two more. A family of 20 faces would otherwise try a feature with no visible effect 20
  /// times over.
  static let facesPerFeature = 3

  /// Reads `family`'s OpenType and TrueType faces (`FontFamily.openTypeFaces`). Throws when
  /// its regular face cannot be read; another face that cannot be read is left out, named in
  /// the family's one warning.
  ///
  /// Type 1, PCF, BDF and other non-sfnt faces are not read: their format has no OpenType
  /// features or variation axes, so there is nothing to list and nothing to warn about. A
  /// family made only of such faces has empty proofs and no warning (Pango cannot draw it;
  /// selecting it for a run is what warns, once).
  public static func read(_ family: FontFamily) throws(ProofReadError) -> FamilyProofs {
    guard let regular = family.regularFace else {
      throw ProofReadError(file: family.name, reason: "has no face")
    }
    guard regular.isOpenType else { return FamilyProofs(proofs: FontProofs()) }
    let axesFace = family.axesFace.flatMap { $0 == regular ? nil : $0 }
    return try read(regular: regular, faces: family.openTypeFaces, axesFace: axesFace)
  }

  /// Reads the family whose regular face is `regular`, with features from all of `faces`
  /// (`regular` need not be among them). Faces are told apart by file and face index; the
  /// named-instance bits of fontconfig's index only pick an instance of the same face.
  ///
  /// `axesFace`: where axes and named instances are read when it is not `regular` (a family
  /// whose regular face is a static file beside its variable one: `FontFamily.axesFace`).
  public static func read(regular: FontFace, faces: [FontFace], axesFace: FontFace? = nil)
    throws(ProofReadError) -> FamilyProofs
  {
    let regularFace: HarfBuzzFace
    do {
      regularFace = try HarfBuzzFace(file: regular.file, index: regular.index)
    } catch {
      throw ProofReadError(file: error.file, reason: error.reason)
    }
    var unreadable: [FontReadError] = []
    var opened: [(face: FontFace, hb: HarfBuzzFace)] = [(regular, regularFace)]
    var seen: Set<FaceKey> = [FaceKey(regular)]
    for face in faces where seen.insert(FaceKey(face)).inserted {
      do {
        opened.append((face, try HarfBuzzFace(file: face.file, index: face.index)))
      } catch {
        if !unreadable.contains(where: { $0.file == error.file }) { unreadable.append(error) }
      }
    }
    // One warning for the family, naming every file: not one per face.
    let warnings =
      unreadable.isEmpty
      ? []
      : [
        unreadable.map(\.description).joined(separator: "; ")
          + (unreadable.count == 1
            ? "; its features are not listed" : "; their features are not listed")
      ]

    let variable =
      axesFace.flatMap { face in opened.first { $0.face == face }?.hb }
      ?? axesFace.flatMap { try? HarfBuzzFace(file: $0.file, index: $0.index) } ?? regularFace
    let (axes, hidden) = FontAxes.read(variable)
    let instances = readInstances(variable, axes: axes)
    let (features, samples, tried) = readFeatures(opened)
    var proofs = FamilyProofs(
      proofs: FontProofs(axes: axes, instances: instances, features: features),
      samples: samples, tried: tried, hiddenAxes: hidden, warnings: warnings)
    proofs.unvaried = VariationCheck.warnings(
      face: variable, axes: axes, hidden: Set(hidden), instances: instances,
      steps: FontProofs.Axis.sweepSteps)
    return proofs
  }

  /// One face of a file, whatever named instance fontconfig's index points at.
  struct FaceKey: Hashable {
    var file: String
    var index: Int
    init(_ face: FontFace) {
      file = face.file
      index = face.index & 0xFFFF
    }
  }

  // MARK: - Axes and instances

  package static func readInstances(_ face: HarfBuzzFace, axes: [FontProofs.Axis]) -> [FontProofs
    .Instance]
  {
    face.namedInstances().enumerated().map { number, instance in
      var coordinates: [String: Double] = [:]
      for (axis, value) in zip(axes, instance.coordinates) where coordinates[axis.tag] == nil {
        coordinates[axis.tag] = FontAxes.shortest(value)
      }
      let name =
        face.name(instance.subfamilyNameID).flatMap(ProofText.clean) ?? "Instance \(number + 1)"
      return FontProofs.Instance(name: name, coordinates: coordinates)
    }
  }

  // MARK: - Features

  /// What the faces list for one tag.
  private struct Listing {
    var tables: Set<LayoutTable> = []
    var label: String?
    /// Indices into the opened faces that have the tag, in order.
    var faces: [Int] = []
  }

  static func readFeatures(_ opened: [(face: FontFace, hb: HarfBuzzFace)]) -> (
    [FontProofs.Feature], [FeatureSample], [FeatureTrial]
  ) {
    var listings: [String: Listing] = [:]
    for (faceNumber, entry) in opened.enumerated() {
      for table in LayoutTable.allCases {
        for (featureIndex, hbTag) in entry.hb.featureTags(table).enumerated() {
          let tag = HarfBuzzTag.string(hbTag)
          var listing = listings[tag] ?? Listing()
          listing.tables.insert(table)
          if listing.faces.last != faceNumber { listing.faces.append(faceNumber) }
          if listing.label == nil,
            let id = entry.hb.featureLabelNameID(table, featureIndex: featureIndex)
          {
            listing.label = entry.hb.name(id).flatMap(ProofText.clean)
          }
          listings[tag] = listing
        }
      }
    }

    var samplers: [Int: FeatureSampler] = [:]
    var features: [FontProofs.Feature] = []
    var samples: [FeatureSample] = []
    var tried: [FeatureTrial] = []
    for (number, tag) in listings.keys.sorted().enumerated() {
      guard let listing = listings[tag] else { continue }
      let tables = LayoutTable.allCases.filter { listing.tables.contains($0) }
      var visible = false
      // Why it shows nothing: as the first face that has it says.
      var noEffect: FontProofs.NoEffect? = number < featureLimit ? nil : .untried
      if number < featureLimit {
        for faceNumber in listing.faces.prefix(facesPerFeature) {
          let entry = opened[faceNumber]
          let sampler = samplers[faceNumber] ?? FeatureSampler(face: entry.hb)
          samplers[faceNumber] = sampler
          // Its rules are read in the first face that has it only: the others' are as a rule
          // the same rules at another weight, and reading them is most of a face's cost.
          let found = sampler.findings(
            tag: tag, tables: tables, rules: faceNumber == listing.faces.first)
          noEffect = noEffect ?? found.noEffect
          if let sample = found.sample {
            samples.append(
              FeatureSample(
                tag: tag, text: sample.text, language: sample.language,
                on: FeatureSetting(tag: tag), file: entry.face.file, index: entry.face.index,
                style: entry.face.style, ranges: sample.ranges))
            visible = true
          }
          for trial in found.tried {
            tried.append(
              FeatureTrial(
                tag: tag, text: trial.text, language: trial.language, file: entry.face.file,
                index: entry.face.index, ranges: trial.ranges))
          }
          if visible { break }
        }
      }
      if visible {
        tried.removeAll { $0.tag == tag }
        noEffect = nil
      }
      features.append(
        FontProofs.Feature(
          tag: tag, name: FeatureNames.name(for: tag, fontLabel: listing.label),
          tables: tables.map(\.rawValue), visible: visible, noEffect: noEffect))
    }
    return (features, samples, tried)
  }
}

extension ProofReader {
  /// What a job's sample settings are checked against, without sampling anything: the regular
  /// face's axes and every feature tag of any face. A face that cannot be read adds nothing.
  public static func layout(_ family: FontFamily) -> (
    axes: [FontProofs.Axis], features: Set<String>
  ) {
    var axes: [FontProofs.Axis] = []
    var features = Set<String>()
    var seen = Set<FaceKey>()
    let faces = (family.axesFace.map { [$0] } ?? []) + family.faces
    // Type 1 and bitmap faces have neither features nor axes.
    for face in faces where face.isOpenType && seen.insert(FaceKey(face)).inserted {
      guard let hb = try? HarfBuzzFace(file: face.file, index: face.index) else { continue }
      if seen.count == 1, family.axesFace != nil { axes = FontAxes.read(hb).axes }
      for table in LayoutTable.allCases {
        for tag in hb.featureTags(table) { features.insert(HarfBuzzTag.string(tag)) }
      }
    }
    return (axes, features)
  }
}
