import FontTestSupport
import Foundation
import Testing

@testable import FontiDiff
@testable import FontiDraw
@testable import FontiEngine
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// Incremental decisions as data: what changed → what is drawn again.
@Suite struct BatchPlanTests {
  let serif = FontFamily(
    name: "DejaVu Serif",
    faces: [FontFace(style: "Book", weight: 80, slant: 0, file: "/f/serif.ttf")])
  let sans = FontFamily(
    name: "Cantarell",
    faces: [FontFace(style: "Regular", weight: 80, slant: 0, file: "/f/cant.otf")])

  func job() -> Job {
    var job = Job(path: "job.yaml", directory: "/w", output: "/w/out")
    job.catalogues = [Job.CatalogueSpec(file: Located("catalogue.pdf"))]
    return job
  }

  func plan(
    _ job: Job, previous: RunManifest?, stamps: [String: String] = [:], force: Bool = false,
    saved: [FontFamily] = [], only: [String] = [], changed: Set<String> = []
  ) -> BatchPlan {
    let families = [sans, serif]
    return BatchPlan.make(
      job: job, output: "/w/out",
      inputs: PlanInputs(
        families: families, saved: saved, catalogueFamilies: [families], labelFamily: sans),
      previous: previous, force: force, only: only.map(FamilyPattern.init),
      stamp: { stamps[$0] ?? "\($0)|1|1" },
      verify: { path, record in
        changed.contains(path) ? nil : FileState(size: record.size ?? 1, mtimeNs: 1)
      })
  }

  /// The manifest a run of `plan` would write.
  func manifest(of plan: BatchPlan) -> RunManifest {
    RunManifest(
      title: "t",
      families: plan.specimens.map {
        RunManifest.Family(
          family: $0.family.name, slug: $0.slug, custom: false, saved: $0.saved, styles: [],
          bold: false, italic: false, missingGlyphs: 0, warnings: [],
          files: [RunManifest.File(path: $0.file, sha256: "x", inputs: $0.inputs)]
            + ($0.thumbnail.map {
              [RunManifest.File(path: $0.file, sha256: "t", inputs: $0.inputs)]
            }
              ?? []),
          error: nil)
      },
      pairings: [],
      catalogues: plan.catalogues.map {
        RunManifest.Catalogue(file: $0.file, pages: 3, sha256: "y", inputs: $0.inputs)
      },
      counts: RunManifest.Counts(families: 2, rendered: 2, skipped: 0, failed: 0, warnings: 0),
      durationSeconds: 1)
  }

  /// A catalogue's `inputs` hash its worker request and its path in the output folder as one
  /// JSON object, in the shape manifests have recorded since the first version: a catalogue
  /// made from the same things stays up to date across versions of the tool (unless the design
  /// version changes).
  @Test func aCataloguesFingerprintKeepsItsShape() throws {
    let input = CatalogueInput(
      page: .a4, theme: .cream, title: "T", text: "Aa", size: 48, texts: [], sizes: [12],
      styles: .picks([.slot(.regular)]), families: [FamilyRef(serif)],
      partners: ["DejaVu Serif": [FamilyRef(sans)]],
      pairings: [FamilyPairing(heading: FamilyRef(sans), body: FamilyRef(serif), reason: "r")],
      saved: [], creationDate: nil)
    let json = String(
      decoding: try JSONEncoder(.fingerprint).encode(
        CatalogueFingerprint(input, path: "pdf/c.pdf")),
      as: UTF8.self)
    #expect(
      json
        == #"{"families":[{"custom":false,"name":"DejaVu Serif"}],"page":"a4","pairings":[{"body":"#
        + #"{"custom":false,"name":"DejaVu Serif"},"heading":{"custom":false,"name":"Cantarell"},"#
        + #""reason":"r"}],"partners":{"DejaVu Serif":[{"custom":false,"name":"Cantarell"}]},"#
        + #""path":"pdf\/c.pdf","saved":[],"size":48,"sizes":[12],"styles":["regular"],"#
        + #""text":"Aa","texts":[],"theme":"cream","title":"T"}"#)
  }

  /// An output folder moved, restored from a CI cache elsewhere or merged from shards in
  /// another place records the same `inputs` for its catalogue, and stays up to date.
  @Test func aCataloguesInputsDoNotDependOnWhereTheOutputFolderIs() {
    let here = plan(job(), previous: nil)
    var moved = job()
    moved.output = "/elsewhere/else/out"
    let families = [sans, serif]
    let there = BatchPlan.make(
      job: moved, output: moved.output,
      inputs: PlanInputs(
        families: families, saved: [], catalogueFamilies: [families], labelFamily: sans),
      previous: manifest(of: here), force: false, only: [], stamp: { "\($0)|1|1" },
      verify: { _, record in FileState(size: record.size ?? 1, mtimeNs: 1) })
    #expect(there.catalogues.map(\.inputs) == here.catalogues.map(\.inputs))
    #expect(there.pendingItems.isEmpty, "nothing to draw again in the moved folder")
  }

  @Test func aFirstRunDrawsEverythingAndASecondNothing() {
    let first = plan(job(), previous: nil)
    #expect(first.pendingItems.count == 3)
    #expect(
      first.pendingItems.first?.path == "/w/out/catalogue.pdf", "the longest item starts first")
    let second = plan(job(), previous: manifest(of: first))
    #expect(second.pendingItems.isEmpty)
    #expect(plan(job(), previous: manifest(of: first), force: true).pendingItems.count == 3)
  }

  @Test func thumbnailsComeWithTheirSpecimenOrFromItsFile() {
    let first = plan(job(), previous: nil)
    // Drawn specimens bring their thumbnail: the worker is asked for it.
    for s in first.specimens {
      #expect(s.thumbnail?.action == .withSpecimen)
      guard case .specimen(let request, _) = s.item else { continue }
      #expect(request.thumbnail == "/w/out/thumbs/\(s.slug).png")
    }
    // A manifest from before the gallery: the specimens stay, their thumbnails are made from
    // the files, and nothing is drawn.
    var old = manifest(of: first)
    for i in old.families.indices { old.families[i].files.removeLast() }
    let next = plan(job(), previous: old)
    #expect(next.specimens.map(\.action) == [.upToDate, .upToDate])
    #expect(
      next.pendingItems == [
        .thumbnail(
          ThumbnailTask(
            source: "/w/out/specimens/cantarell.png", path: "/w/out/thumbs/cantarell.png")),
        .thumbnail(
          ThumbnailTask(
            source: "/w/out/specimens/dejavu-serif.png", path: "/w/out/thumbs/dejavu-serif.png")),
      ])
    #expect(
      next.listing.rows.filter { $0.action == "render" }.map(\.file).contains(
        "thumbs/cantarell.png"))
    // A thumbnail that is gone from the disk, or of another specimen, is made again.
    let gone = plan(job(), previous: manifest(of: first), changed: ["/w/out/thumbs/cantarell.png"])
    #expect(gone.pendingItems.map(\.path) == ["/w/out/thumbs/cantarell.png"])
    var other = manifest(of: first)
    other.families[1].files[1].inputs = "another"
    #expect(
      plan(job(), previous: other).pendingItems.map(\.path) == ["/w/out/thumbs/dejavu-serif.png"])
    // Up to date with its specimen: nothing to do.
    #expect(plan(job(), previous: manifest(of: first)).pendingItems.isEmpty)

    // gallery: false: no thumbnail, and the previous ones and the page are outputs no longer made.
    var off = job()
    off.gallery = false
    var withPage = manifest(of: first)
    withPage.gallery = RunManifest.Gallery(file: "index.html", sha256: "p")
    let without = plan(off, previous: withPage)
    #expect(without.specimens.allSatisfy { $0.thumbnail == nil })
    #expect(without.pendingItems.isEmpty)
  }

  @Test func aChangedFontFileRedrawsItsFamilyAndTheCatalogue() {
    let previous = manifest(of: plan(job(), previous: nil))
    let next = plan(job(), previous: previous, stamps: ["/f/serif.ttf": "/f/serif.ttf|2|9"])
    #expect(next.specimens.map(\.upToDate) == [true, false])
    #expect(next.catalogues.map(\.upToDate) == [false])
  }

  @Test func settingsThatShowRedrawWhatShowsThem() {
    let previous = manifest(of: plan(job(), previous: nil))
    var bigger = job()
    bigger.defaults.size = 60
    #expect(plan(bigger, previous: previous).pendingItems.count == 3)
    var retitled = job()
    retitled.title = "Another title"
    let retitledPlan = plan(retitled, previous: previous)
    #expect(retitledPlan.specimens.allSatisfy { $0.upToDate }, "specimens do not show the title")
    #expect(retitledPlan.catalogues.allSatisfy { !$0.upToDate })
    // Hearting a family redraws its specimen (the heart) and the catalogue (the Saved section).
    let hearted = plan(job(), previous: previous, saved: [serif])
    #expect(hearted.specimens.map(\.upToDate) == [true, false])
    #expect(hearted.catalogues.map(\.upToDate) == [false])
  }

  @Test func proofFlagsRedrawOnlyTheCatalogues() {
    let previous = manifest(of: plan(job(), previous: nil))
    var off = job()
    off.proofs.features = false
    let offPlan = plan(off, previous: previous)
    #expect(offPlan.specimens.allSatisfy { $0.upToDate }, "specimens show no proof")
    #expect(offPlan.catalogues.map(\.upToDate) == [false], "the proof pages change")
    var glyphs = job()
    glyphs.proofs.glyphs = true
    #expect(plan(glyphs, previous: previous).catalogues.map(\.upToDate) == [false])
    #expect(plan(glyphs, previous: previous).specimens.allSatisfy { $0.upToDate })
    // The request carries the flags, for the manifest fields the worker reads.
    guard case .specimen(let request, _) = offPlan.specimens[0].item,
      case .catalogue(let input, _) = offPlan.catalogues[0].item
    else {
      Issue.record("unexpected items")
      return
    }
    #expect(request.proofs == off.proofs)
    #expect(input.proofs == off.proofs)
    #expect(request.sample == nil && input.sample == nil, "no settings: none sent")
  }

  @Test func sampleSettingsRedrawSpecimensAndCatalogues() {
    let previous = manifest(of: plan(job(), previous: nil))
    for change in [
      SampleSettings(features: [FeatureSetting(tag: "smcp")]),
      SampleSettings(variations: [VariationSetting(tag: "wght", value: 650)]),
      SampleSettings(language: "sr"),
    ] {
      var changed = job()
      changed.defaults.sample = change
      let next = plan(changed, previous: previous)
      #expect(next.specimens.allSatisfy { !$0.upToDate }, "\(change)")
      #expect(next.catalogues.allSatisfy { !$0.upToDate }, "\(change)")
      guard case .specimen(let request, _) = next.specimens[0].item,
        case .catalogue(let input, _) = next.catalogues[0].item
      else { continue }
      #expect(request.sample == change && input.sample == change)
      // The same settings again: up to date.
      #expect(plan(changed, previous: manifest(of: next)).pendingItems.isEmpty)
    }
  }

  @Test func aVariableFamilysSpecimenRecordsItsVariableLine() {
    let variable = FontFamily(
      name: "Var",
      faces: [FontFace(style: "Regular", weight: 80, slant: 0, file: "/f/v.ttf", index: 0x10000)])
    let parts = BatchPlan.specimenExtras(variable, sample: nil)
    #expect(parts == ["variable-line-1"])
    #expect(BatchPlan.specimenExtras(serif, sample: nil).isEmpty, "a static family: as before")
  }

  @Test func slugsAreUniqueWithinARun() {
    let a = FontFamily(name: "Foo!", faces: [])
    let b = FontFamily(name: "foo?", faces: [])
    let p = BatchPlan.make(
      job: job(), output: "/o", inputs: PlanInputs(families: [a, b]), previous: nil, force: false,
      stamp: { $0 }, verify: { _, _ in nil })
    #expect(p.specimens.map(\.file) == ["specimens/foo.png", "specimens/foo-2.png"])
  }

  @Test func aFileThatIsNoLongerTheOneRecordedIsDrawnAgain() {
    let previous = manifest(of: plan(job(), previous: nil))
    let next = plan(job(), previous: previous, changed: ["/w/out/specimens/cantarell.png"])
    #expect(next.specimens.map(\.action) == [.render, .upToDate])
    #expect(next.specimens[0].previous == nil, "its entry is not carried over")
    #expect(next.catalogues.map(\.action) == [.upToDate])
  }

  @Test func onlyDrawsMatchingFamiliesAndKeepsTheRest() {
    let previous = manifest(of: plan(job(), previous: nil))
    // Everything is stale (a new size); --only redraws DejaVu Serif and keeps Cantarell as it is.
    var bigger = job()
    bigger.defaults.size = 60
    let next = plan(bigger, previous: previous, only: ["dejavu*"])
    #expect(next.specimens.map(\.family.name) == ["Cantarell", "DejaVu Serif"])
    #expect(next.specimens.map(\.action) == [.keep, .render])
    #expect(next.specimens[0].previous?.files.first?.path == "specimens/cantarell.png")
    // The catalogue shows Cantarell, which --only leaves stale: left as it was, with a warning.
    #expect(next.catalogues.map(\.action) == [.keep])
    #expect(next.catalogues[0].previous != nil)
    #expect(
      next.diagnostics.map(\.message) == [
        "catalogue 'catalogue.pdf' is left as it was: 1 of its families is not up to date and "
          + "--only leaves it out (Cantarell)"
      ])
    #expect(next.pendingItems.map(\.path) == ["/w/out/specimens/dejavu-serif.png"])
    #expect(next.obsolete.isEmpty, "--only unselects nothing")

    // Only DejaVu Serif's font changed: once it is drawn, every family of the catalogue is
    // up to date, so the catalogue is drawn too.
    let oneFont = plan(
      job(), previous: previous, stamps: ["/f/serif.ttf": "/f/serif.ttf|2|9"], only: ["dejavu*"])
    #expect(oneFont.specimens.map(\.action) == [.upToDate, .render])
    #expect(oneFont.catalogues.map(\.action) == [.render])
    #expect(oneFont.diagnostics.isEmpty)
  }

  @Test func forceWithOnlyRedrawsOnlyMatchingFamilies() {
    let previous = manifest(of: plan(job(), previous: nil))
    let forced = plan(job(), previous: previous, force: true, only: ["cantarell"])
    #expect(forced.specimens.map(\.action) == [.render, .upToDate])
    // DejaVu Serif is current, so the catalogue is redrawn (forced) with every family up to date.
    #expect(forced.catalogues.map(\.action) == [.render])
  }

  @Test func missingCharactersAreTheSampleAndTextsCharactersAFamilyLacks() throws {
    // A-Z, a-z and the space's neighbours, not the full stop.
    var words = [UInt32](repeating: 0, count: 8)
    for scalar in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz,".unicodeScalars {
      words[Int(scalar.value >> 5)] |= 1 << (scalar.value & 31)
    }
    let latin = CharacterCoverage(pages: [0: words])
    let family = FontFamily(name: "Latin", faces: [], coverage: latin)
    var j = job()
    j.defaults.text = "Tokyo, Tokyo."
    j.texts = ["東京 tower", "京"]
    let p = BatchPlan.make(
      job: j, output: "/o", inputs: PlanInputs(families: [family], catalogueFamilies: [[family]]),
      previous: nil, force: false, stamp: { $0 }, verify: { _, _ in nil })
    #expect(p.specimens.first?.missingCharacters == [".", "京", "東"])
    #expect(p.catalogues.first?.missingCharacters["Latin"] == [".", "京", "東"])
    #expect(MissingCharacters.codes([".", "京", "東"]) == ["U+002E", "U+4EAC", "U+6771"])
    // At least four digits, as many as needed beyond, upper case.
    #expect(
      MissingCharacters.codes(["\u{0}", "\u{AB}", "\u{FFFF}", "\u{1F600}", "\u{10FFFD}"])
        == ["U+0000", "U+00AB", "U+FFFF", "U+1F600", "U+10FFFD"])
  }

  @Test func outputsNoLongerMadeAreObsoleteOnlyWhenTheirPathsAreOurs() throws {
    let output = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: output) }
    let outside = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: outside) }
    for folder in ["specimens", "pairings", "books"] {
      try FileManager.default.createDirectory(
        atPath: output + "/" + folder, withIntermediateDirectories: true)
    }
    // A folder inside the output that is a link to somewhere else.
    try FileManager.default.createSymbolicLink(
      atPath: output + "/away", withDestinationPath: outside)
    var previous = manifest(of: plan(job(), previous: nil))
    func listed(_ path: String) {
      previous.families.append(
        RunManifest.Family(
          family: path, slug: "x", custom: false, saved: false, styles: [], bold: false,
          italic: false, missingGlyphs: 0, warnings: [],
          files: [RunManifest.File(path: path, sha256: "z", inputs: nil)], error: nil))
    }
    let ours = [
      "specimens/lato.png", "pairings/lato+inter.png", "books/old.pdf", "specimens/Upper Case.png",
    ]
    let hostile = [
      "../outside.png", "/etc/passwd", "specimens/../../x.png", "specimens/./a.png",
      "specimens//a.png",
      "favourites.json", "manifest.json", "notes.txt", "specimens/a/b.png", "fonts/x.png",
      "away/catalogue.pdf", "specimens/.hidden.png", "specimens/a\u{1B}.png", "",
      "specimens/tab\t.png",
    ]
    for path in ours + hostile { listed(path) }
    previous.pairings.append(
      RunManifest.Pairing(
        heading: "A", body: "B", file: "pairings/gone+sheet.png", sha256: "z", inputs: nil))
    var j = job()
    j.output = output
    let p = BatchPlan.make(
      job: j, output: output,
      inputs: PlanInputs(families: [sans, serif], catalogueFamilies: [[sans, serif]]),
      previous: previous, force: false, stamp: { $0 },
      verify: { path, record in
        // Files are intact unless their checksum says otherwise ("bad").
        record.sha256 == "bad" ? nil : FileState(size: 1, mtimeNs: 1)
      })
    #expect(p.obsolete == ours + ["pairings/gone+sheet.png"])

    // A file that is no longer the one recorded is the user's now: never removed.
    var changed = previous
    changed.families = changed.families.map {
      var f = $0
      if f.family == "specimens/lato.png" { f.files[0].sha256 = "bad" }
      return f
    }
    let q = BatchPlan.make(
      job: j, output: output,
      inputs: PlanInputs(families: [sans, serif], catalogueFamilies: [[sans, serif]]),
      previous: changed, force: false, stamp: { $0 },
      verify: { _, record in record.sha256 == "bad" ? nil : FileState(size: 1, mtimeNs: 1) })
    #expect(!q.obsolete.contains("specimens/lato.png"))
  }

  /// A run holds none of the previous entries of the families it draws again. After an
  /// interruption, those of the families not reached come back whole from the previous
  /// manifest on disk (proofs, counts, time, the thumbnail's record), each only while its
  /// files are still the ones recorded and the entry is that family's.
  @Test func aRunLetsPreviousEntriesGoAndFindsThemAgainOnDisk() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var previous = manifest(of: plan(job(), previous: nil))
    // Each file on disk as its record says.
    for i in previous.families.indices {
      for k in previous.families[i].files.indices {
        let file = previous.families[i].files[k]
        let path = folder + "/" + file.path
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("\(file.path) \(i)".utf8).write(to: URL(fileURLWithPath: path))
        let state = try #require(FileStamp.state(path))
        previous.families[i].files[k].size = state.size
        previous.families[i].files[k].mtimeNs = state.mtimeNs
      }
      previous.families[i].codepoints = 100 + i
      previous.families[i].missingGlyphs = 3
      previous.families[i].warnings = ["w\(i)"]
      previous.families[i].seconds = 0.25
    }
    #expect(previous.families.allSatisfy { $0.files.count == 2 })
    previous.gallery = RunManifest.Gallery(file: "index.html", sha256: "g", size: 1, inputs: "i")
    var p = plan(job(), previous: previous, force: true)
    #expect(p.specimens.map(\.previous?.codepoints) == [100, 101])
    #expect(p.specimens.allSatisfy { $0.thumbnail?.previous != nil })
    #expect(p.galleryManifest != nil)

    p.output = folder
    let entries = p.releasingPrevious()
    // Something is drawn: the page is made again, without the previous manifest to compare.
    #expect(p.galleryManifest == nil)
    #expect(p.specimens.allSatisfy { $0.previous == nil && $0.thumbnail?.previous == nil })

    let path = folder + "/manifest.json"
    try previous.encoded().write(to: URL(fileURLWithPath: path))
    let first = folder + "/" + p.specimens[0].file
    var restored = p
    entries.restore(in: &restored, from: path) { $0 == first }
    // The first family has its result: it gets nothing back.
    #expect(restored.specimens[0].previous == nil)
    #expect(restored.specimens[0].thumbnail?.previous == nil)
    let old = try #require(restored.specimens[1].previous)
    #expect(old.codepoints == 101 && old.missingGlyphs == 3 && old.warnings == ["w1"])
    #expect(old.seconds == 0.25)
    // The specimen's record alone, as on disk; the thumbnail's beside it.
    #expect(old.files == [previous.families[1].files[0]])
    #expect(restored.specimens[1].thumbnail?.previous == previous.families[1].files[1])

    // Nothing reached: both come back.
    restored = p
    entries.restore(in: &restored, from: path) { _ in false }
    #expect(restored.specimens.map(\.previous?.codepoints) == [100, 101])

    // A thumbnail no longer the one recorded: the specimen's entry alone comes back.
    let thumb = folder + "/" + previous.families[1].files[1].path
    try Data("another, longer thumbnail".utf8).write(to: URL(fileURLWithPath: thumb))
    restored = p
    entries.restore(in: &restored, from: path) { $0 == first }
    #expect(restored.specimens[1].previous?.codepoints == 101)
    #expect(restored.specimens[1].thumbnail?.previous == nil)

    // A specimen no longer the one recorded, or an entry of another family at its path:
    // nothing comes back.
    let specimen = folder + "/" + previous.families[1].files[0].path
    try Data("another, longer specimen".utf8).write(to: URL(fileURLWithPath: specimen))
    restored = p
    entries.restore(in: &restored, from: path) { $0 == first }
    #expect(restored.specimens[1].previous == nil)
    var renamed = previous
    renamed.families[0].family = "Someone Else"
    try renamed.encoded().write(to: URL(fileURLWithPath: path))
    restored = p
    entries.restore(in: &restored, from: path) { _ in false }
    #expect(restored.specimens.map(\.previous?.codepoints) == [nil, nil])

    // No manifest on disk any more: nothing comes back, and nothing fails.
    try FileManager.default.removeItem(atPath: path)
    restored = p
    entries.restore(in: &restored, from: path) { _ in false }
    #expect(restored.specimens.allSatisfy { $0.previous == nil })
  }

  /// A run reads the previous manifest without its proofs; the plan reads them back for the
  /// entries it keeps, and not at all when it draws every family again.
  @Test func aPlanReadsPreviousProofsOnlyForTheEntriesItKeeps() throws {
    var previous = manifest(of: plan(job(), previous: nil))
    for i in previous.families.indices { previous.families[i].codepoints = 100 + i }
    previous.gallery = RunManifest.Gallery(file: "index.html", sha256: "g", size: 1, inputs: "i")
    let bytes = [UInt8](try previous.encoded())
    let bare = try #require(RunManifest.decode(bytes, proofs: false))
    #expect(bare.families.map(\.family) == previous.families.map(\.family))
    #expect(bare.families.allSatisfy { $0.codepoints == nil && !$0.files.isEmpty })

    var kept = plan(job(), previous: bare)
    #expect(kept.specimens.allSatisfy { $0.action == .upToDate })
    kept.readPreviousProofs(from: bytes)
    #expect(kept.specimens.map(\.previous?.codepoints) == [100, 101])
    // Nothing to draw: the gallery page is compared with the whole previous manifest.
    #expect(kept.galleryManifest?.families.map(\.codepoints) == [100, 101])

    var forced = plan(job(), previous: bare, force: true)
    forced.readPreviousProofs(from: bytes)
    #expect(forced.specimens.allSatisfy { $0.previous != nil && $0.previous?.codepoints == nil })

    // Proof fields of the wrong type: the manifest still counts for its files, the entries it
    // keeps have no proofs (the run reads them from the fonts), and nothing throws.
    let text = String(decoding: bytes, as: UTF8.self)
      .replacingOccurrences(of: #""codepoints" : 100"#, with: #""codepoints" : "many""#)
    let damaged = [UInt8](text.utf8)
    #expect(damaged != bytes)
    #expect(RunManifest.decode(damaged) == nil)
    let readable = try #require(RunManifest.decode(damaged, proofs: false))
    var fallback = plan(job(), previous: readable)
    #expect(fallback.specimens.allSatisfy { $0.action == .upToDate })
    #expect(fallback.galleryManifest != nil)
    fallback.readPreviousProofs(from: damaged)
    #expect(fallback.specimens.allSatisfy { $0.previous?.codepoints == nil })
    // Nor is the gallery page compared with a manifest that lacks what the page shows (proofs
    // just turned off would find it the same and keep a page showing them): it is made again.
    #expect(fallback.galleryManifest == nil)
  }

  /// A run that is not forced reads the previous manifest whole, once: the plan keeps the
  /// proofs of the entries it keeps where the manifest records the same file, and none for the
  /// others, as reading them back would.
  @Test func aPlanMadeFromTheWholeManifestKeepsTheProofsOfWhatItKeeps() throws {
    var previous = manifest(of: plan(job(), previous: nil))
    for i in previous.families.indices { previous.families[i].codepoints = 100 + i }
    previous.gallery = RunManifest.Gallery(file: "index.html", sha256: "g", size: 1, inputs: "i")

    var kept = plan(job(), previous: previous)
    #expect(kept.specimens.allSatisfy { $0.action == .upToDate })
    kept.keepPreviousProofs(from: previous)
    #expect(kept.specimens.map(\.previous?.codepoints) == [100, 101])
    #expect(kept.galleryManifest?.families.map(\.codepoints) == [100, 101])

    // The manifest records the first file with other contents: that entry keeps no proofs.
    var other = previous
    other.families[0].files[0].sha256 = "0"
    var mixed = plan(job(), previous: previous)
    mixed.keepPreviousProofs(from: other)
    #expect(mixed.specimens.map(\.previous?.codepoints) == [nil, 101])

    // A plan that draws everything again keeps no proofs, nor the gallery's manifest; the
    // run then lets go of the entries it draws again.
    var forced = plan(job(), previous: previous, force: true)
    forced.keepPreviousProofs(from: previous)
    #expect(forced.galleryManifest == nil)
    #expect(forced.specimens.allSatisfy { $0.previous != nil })
    _ = forced.releasingPrevious()
    #expect(forced.specimens.allSatisfy { $0.previous == nil })
  }

  /// With a spool, a result's proofs wait on disk, in an unlinked file: the table gives the
  /// result without them and reads them back by path.
  @Test func theResultTableSpoolsProofsToAnUnlinkedFile() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var proofs = FamilyProofReport(
      axes: [FontProofs.Axis(tag: "wght", name: "Weight", min: 100, defaultValue: 400, max: 900)],
      features: [
        FontProofs.Feature(tag: "smcp", name: "Small Capitals", tables: ["GSUB"], visible: true)
      ],
      languages: LanguageCoverage(supported: ["de", "en"], nearly: []), codepoints: 321)
    proofs.warnings = []
    var table = ResultTable(spool: ProofSpool(folder: folder))
    var drawn = WorkResult(ok: true, sha256: "1")
    drawn.proofs = proofs
    table["/a"] = drawn
    table["/b"] = WorkResult(ok: true, sha256: "2")
    #expect(table["/a"]?.proofs == nil)
    #expect(table["/a"]?.sha256 == "1")
    #expect(try table.proofs(at: "/a") == proofs)
    #expect(try table.proofs(at: "/b") == nil)
    #expect(try table.proofs(at: "/c") == nil)
    // Nothing is left in the folder, even while the spool is open.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  /// The results table answers by path, keeps the last result given, and forgets on nil.
  @Test func theResultTableKeepsOneResultPerPath() {
    var table = ResultTable()
    table["/a"] = WorkResult(ok: true, sha256: "1")
    table["/b"] = .failure("no")
    table["/a"] = WorkResult(ok: true, sha256: "2")
    #expect(table["/a"]?.sha256 == "2")
    #expect(table["/b"]?.error == "no")
    #expect(table["/c"] == nil)
    let copy = table
    table["/b"] = nil
    #expect(table["/b"] == nil)
    #expect(copy["/b"]?.ok == false)
  }

  /// A run's parent holds a plan's specimens and arrays of work items for every family while
  /// the workers draw: an item is a reference to its case, and a specimen's thumbnail holds its
  /// task alone, not room for the largest work item (at 4,000 families, 1.6 MB of the parent).
  @Test func aPlansRecordsOfEveryFamilyStaySmall() {
    #expect(MemoryLayout<WorkItem>.size == MemoryLayout<AnyObject>.size)
    // The previous records, set or not, take a reference's room each, not a whole record's.
    #expect(MemoryLayout<Indirect<RunManifest.Family>>.size == MemoryLayout<AnyObject>.size)
    #expect(MemoryLayout<Indirect<RunManifest.File>>.size == MemoryLayout<AnyObject>.size)
    #expect(MemoryLayout<BatchPlan.Thumb>.stride <= MemoryLayout<RunManifest.File?>.stride)
    #expect(MemoryLayout<BatchPlan.Specimen>.size < 2 * MemoryLayout<RunManifest.Family?>.size)
  }

  /// A field behind a reference reads back what was set, nil included, and a copy changed
  /// leaves the original as it was.
  @Test func anIndirectFieldIsAValue() {
    struct Holder { @Indirect var entry: RunManifest.File? }
    var a = Holder(entry: nil)
    #expect(a.entry == nil)
    a.entry = RunManifest.File(path: "p", sha256: "s", inputs: "i")
    var b = a
    b.entry?.sha256 = "t"
    #expect(a.entry?.sha256 == "s" && b.entry?.sha256 == "t")
    b.entry = nil
    #expect(b.entry == nil && a.entry?.path == "p")
  }

  /// A result comes back from the table as it went in, whether the table keeps it in its
  /// compact form (a specimen's) or whole (a catalogue's, with its pages and drawn file).
  @Test func theResultTableGivesBackEveryField() {
    var table = ResultTable()
    var specimen = WorkResult(ok: true, missingGlyphs: 2, warnings: ["thin"], sha256: "1")
    specimen.seconds = 0.25
    var failed = WorkResult.failure("disk full", writeFailure: "No space left on device")
    failed.seconds = 1
    var catalogue = WorkResult(ok: true, sha256: "2")
    catalogue.pages = 3
    catalogue.familyPages = [RunManifest.FamilyPage(family: "A", page: 2)]
    catalogue.missingByFamily = ["A": 1]
    catalogue.raw = "/o/.catalogue.pdf.raw"
    catalogue.creationDate = Date(timeIntervalSince1970: 1_700_000_000)
    for (path, result) in [("/s", specimen), ("/f", failed), ("/c", catalogue)] {
      table[path] = result
      #expect(table[path] == result)
    }
  }
}

/// Whether a file is still the one a manifest recorded: size and time first, then the bytes.
@Suite struct FileStampTests {
  @Test func aFileIsIntactUntilItsBytesChange() throws {
    let folder = try TestFonts.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/a.png"
    try Data("one".utf8).write(to: URL(fileURLWithPath: path))
    let state = try #require(FileStamp.state(path))
    #expect(state.size == 3)
    let sha = try #require(SHA256.hex(file: path))
    let record = OutputRecord(sha256: sha, size: state.size, mtimeNs: state.mtimeNs)
    #expect(FileStamp.verify(path, record) == state)
    // An older manifest without size and time: the checksum decides.
    #expect(FileStamp.verify(path, OutputRecord(sha256: sha)) == state)
    #expect(FileStamp.verify(path, OutputRecord(sha256: "0")) == nil)
    // Touched, same bytes: still intact, with its new time.
    let later = Date(timeIntervalSince1970: 2_000_000_000)
    try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: path)
    let touched = try #require(FileStamp.verify(path, record))
    #expect(touched.mtimeNs == 2_000_000_000 * 1_000_000_000)
    // Same size, other bytes: not intact. Another size: not intact, without reading.
    try Data("two".utf8).write(to: URL(fileURLWithPath: path))
    #expect(FileStamp.verify(path, record) == nil)
    try Data().write(to: URL(fileURLWithPath: path))
    #expect(FileStamp.verify(path, record) == nil)
    // A link or a folder is not an output.
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/etc/hostname")
    #expect(FileStamp.state(path) == nil)
  }
}

/// One fingerprint of a specimen's inputs: the plan records what `SpecimenFingerprint` gives
/// for the request it hands the worker (the function `serve` keys its cards by), and a card's
/// own choices (bold, italic, its text) give another.
@Test func aSpecimensInputsAreTheFingerprintServeKeysCardsBy() throws {
  let family = FontFamily(
    name: "DejaVu Serif",
    faces: [FontFace(style: "Book", weight: 80, slant: 0, file: "/f/serif.ttf")])
  let job = Job(path: "job.yaml", directory: "/w", output: "/w/out")
  let stamp: (String) -> String = { "\($0)|1|1" }
  let plan = BatchPlan.make(
    job: job, output: "/w/out", inputs: PlanInputs(families: [family]), previous: nil,
    force: false, stamp: stamp, verify: { _, _ in nil })
  let specimen = try #require(plan.specimens.first)
  guard case .specimen(let request, _) = specimen.item else {
    Issue.record("a specimen's item draws a specimen")
    return
  }
  let stamps = [BatchPlan.familyStamp(family, stamp: stamp)]
  #expect(
    specimen.inputs
      == SpecimenFingerprint.of(request, family: family, label: "none", stamps: stamps))
  var bold = request
  bold.bold = true
  var other = request
  other.text = "Other text"
  let inputs = Set(
    [bold, other].map { SpecimenFingerprint.of($0, family: family, label: "none", stamps: stamps) })
  #expect(inputs.count == 2 && !inputs.contains(specimen.inputs))
}
