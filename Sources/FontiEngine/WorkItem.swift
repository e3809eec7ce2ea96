import FontiDiff
import FontiDraw
import FontiModel
import FontiText
import Foundation

/// What a worker process is asked to do: draw one output into `path` (absolute), its families
/// by reference, or finish a drawn catalogue.
///
/// Indirect: an item is a reference to its case, not room for the largest case (192 bytes) in
/// every array of items. A run's parent holds several such arrays of every item while the
/// workers draw (the plan's specimens, the pool's queue, the progress weights), which
/// saves the parent about 1 MB at 4,000 families.
public indirect enum WorkItem: Codable, Sendable, Hashable {
  case specimen(SpecimenRequest<FamilyRef>, path: String)
  case pairing(PairingSheetRequest<FamilyRef>, path: String)
  case catalogue(CatalogueInput<FamilyRef>, path: String)
  case finishCatalogue(FinishCatalogueTask)
  /// One family of a `diff`: compared, its drawings left in the review's folder.
  case diff(DiffFamilyTask)

  /// The gallery's thumbnail of a specimen already on disk (an output folder from before the
  /// gallery, or thumbnails deleted): made from the PNG file, without drawing the specimen.
  case thumbnail(ThumbnailTask)

  /// The output file.
  public var path: String {
    switch self {
    case .specimen(_, let path), .pairing(_, let path), .catalogue(_, let path): return path
    case .finishCatalogue(let t): return t.path
    case .diff(let t): return t.folder + "/" + DiffReview.imagePath(t.slug)
    case .thumbnail(let t): return t.path
    }
  }

  /// Whether the item's file is a PNG a worker stages (`WorkResult.staged`) for the parent.
  var isPNG: Bool {
    switch self {
    case .specimen, .pairing, .thumbnail: return true
    case .catalogue, .finishCatalogue, .diff: return false
    }
  }

  /// Whether the item draws text (and so needs fontconfig and Pango set up in the worker).
  var needsFonts: Bool {
    switch self {
    case .finishCatalogue, .diff, .thumbnail: return false
    case .specimen, .pairing, .catalogue: return true
    }
  }

  /// What the item is about, for progress lines and failure messages.
  public var subject: String {
    switch self {
    case .specimen(let request, _): return request.family.name
    case .pairing(let request, _): return "\(request.heading.name) + \(request.body.name)"
    case .catalogue(_, let path): return JobPath.lastComponent(of: path)
    case .finishCatalogue(let t): return JobPath.lastComponent(of: t.path)
    case .diff(let t): return t.name
    case .thumbnail(let t): return "thumbnail " + JobPath.lastComponent(of: t.path)
    }
  }

  /// What a worker does with the item, for the message when it dies at it.
  var activity: String {
    if case .diff = self { return "comparing" }
    return "rendering"
  }
}

/// A thumbnail made from a specimen PNG on disk: `source` and `path` absolute.
public struct ThumbnailTask: Codable, Sendable, Hashable {
  public var source: String
  public var path: String
}

/// The second step of a catalogue: qpdf turns the drawn file into the final one. See
/// `PDFFile.finish`.
public struct FinishCatalogueTask: Codable, Sendable, Hashable {
  /// The drawn file, a temporary beside `path`; removed by this step.
  public var raw: String
  public var path: String
  public var creationDate: Date
  public var pages: Int
  /// What the drawing recorded of the PDF's structure, for the finishing step to complete it.
  package var tagging: PDFTagging?
}

/// What a worker reports back for one item.
public struct WorkResult: Codable, Sendable, Hashable {
  public var ok: Bool
  public var error: String?
  public var missingGlyphs: Int = 0
  public var warnings: [String] = []
  public var sha256: String?
  public var pages: Int?
  /// Catalogues: missing glyphs per family name.
  public var missingByFamily: [String: Int]?
  /// Catalogues: each family's first page, in the catalogue's order.
  public var familyPages: [RunManifest.FamilyPage]?
  /// Catalogues, after drawing: the drawn file and the date it shows, for the finishing step.
  public var raw: String?
  public var creationDate: Date?
  /// Catalogues, after drawing: what the finishing step writes into the structure tree.
  package var tagging: PDFTagging?
  /// PNGs: the complete file under its temporary name, not yet flushed to disk; the parent
  /// flushes it and renames it into place (`StagedFiles`) before the result counts. nil for a
  /// PNG whose file already held exactly the bytes drawn: it was left as it is.
  public var staged: String?
  /// The item failed because its file could not be written, for this reason (the system's
  /// words: "No space left on device"): the fonts are not to blame, and the run names the
  /// cause once for every file it stopped.
  public var writeFailure: String?
  /// Seconds the worker spent on the item (the run manifest's per-family timings).
  public var seconds: Double?

  /// Specimens: the family's proofs the request asked for (manifest fields).
  public var proofs: FamilyProofReport?

  /// `diff`: the family's entry, and where its drawings wait.
  public var diff: DiffFamilyResult?

  /// Specimens asked for a thumbnail: what became of it (staged like the specimen, or why not).
  public var thumbnail: StagedThumbnail?

  /// PNGs of a worker that sends them (`WorkerSetup.sendsPNGs`): the file's bytes, which go
  /// over the pipe after the answer's line (`WorkerAnswer`), not in its JSON.
  public var attachment: [UInt8]?

  /// Every field but `attachment`: a field added above reaches the parent only once it is
  /// listed here.
  enum CodingKeys: String, CodingKey {
    case ok, error, missingGlyphs, warnings, sha256, pages, missingByFamily, familyPages, raw
    case creationDate, tagging, staged, writeFailure, seconds, proofs, diff, thumbnail
  }

  public static func failure(_ message: String, writeFailure: String? = nil) -> WorkResult {
    var result = WorkResult(ok: false, error: message)
    result.writeFailure = writeFailure
    return result
  }
}

/// A thumbnail a worker made along with its specimen: under a temporary name with its
/// checksum, for the parent to put in place (no name: the file already held these bytes), or
/// the reason it could not be made.
public struct StagedThumbnail: Codable, Sendable, Hashable {
  public var staged: String?
  public var sha256: String?
  public var error: String?

  public init(staged: String? = nil, sha256: String? = nil, error: String? = nil) {
    self.staged = staged
    self.sha256 = sha256
    self.error = error
  }
}

/// Sent once to each worker when it starts: what it needs to find the faces items name.
public struct WorkerSetup: Codable, Sendable, Hashable {
  /// Every custom font file the parent registered (library and job), in the same order: the
  /// files a worker may read (each once, when an item first needs it).
  public var customFonts: [String]
  /// The neutral label face the parent chose for the run (labels, notes, badges).
  public var labelFamily: FamilyRef?
  /// The face of the digits in missing characters' boxes (`FontEnvironment.boxDigitsFace`).
  public var boxDigitsFace: FamilyRef?
  /// A worker exits after this many items and the pool starts a fresh one: Cairo keeps up to
  /// 256 scaled fonts with their glyph caches for the life of a process, so a long-lived worker
  /// grows with the number of families; recycling keeps memory flat at the cost of one
  /// fontconfig set-up (about 20 ms) per `itemsPerWorker` families.
  public var itemsPerWorker: Int
  /// The installed fonts' folders in fontconfig's order (`FontEnvironment.workerFolders`): a
  /// worker then loads the fonts of the folders it draws from, not every installed font
  /// (`FacePatterns(configurationFile:installedFolders:customFiles:)`). nil: it loads them all.
  public var installedFolders: [String]?
  /// The output folder the items write into: the worker registers it (`OutputFolder`), so that
  /// nothing it writes there goes through a link.
  public var outputFolder: String?
  /// Specimens and pairing sheets are written nowhere: their PNGs are sent back with the
  /// answer (`WorkResult.attachment`), for a parent that serves them (`serve`'s cards) rather
  /// than reading back a file.
  public var sendsPNGs = false
  /// Font maps a worker keeps, the most recently drawn families' (`FontMaps.kept`): 1 in a
  /// run, which draws each family once; a screenful for `serve`, whose every keystroke draws
  /// the same cards again.
  public var keptFontMaps = 1

  public init(
    customFonts: [String], labelFamily: FamilyRef? = nil, boxDigitsFace: FamilyRef? = nil,
    itemsPerWorker: Int = 40, installedFolders: [String]? = nil, outputFolder: String? = nil
  ) {
    self.outputFolder = outputFolder
    self.customFonts = customFonts
    self.labelFamily = labelFamily
    self.boxDigitsFace = boxDigitsFace
    self.itemsPerWorker = itemsPerWorker
    self.installedFolders = installedFolders
  }
}
