import Foundation
import Testing

@testable import FontiDraw
@testable import FontiEngine
@testable import FontiFonts
@testable import FontiModel
@testable import FontiSupport

/// The scheduler with real worker processes (the tool built with the tests), in a sandbox's
/// world: the test fonts, its own HOME, library and fontconfig cache.
@Suite(.serialized) struct WorkerPoolTests {
  /// Specimens of `families`, each carrying its faces as the parent lists them (the sandbox's
  /// fonts are the test fonts); a family that is not installed carries a face file that does
  /// not exist.
  func items(_ families: [String], in folder: String) throws -> [WorkItem] {
    let catalog = try FontEnvironment(configFile: Repository.fontsConf).catalog
    return families.map { name in
      let ref =
        catalog.family(named: name).map(FamilyRef.init)
        ?? FamilyRef(
          name: name,
          faces: [
            FontFace(style: "Regular", weight: 80, slant: 0, file: "/nonexistent/\(name).ttf")
          ])
      return .specimen(
        SpecimenRequest(
          family: ref, text: "Hamburgefonstiv", size: 24,
          theme: .ink, edge: 256, scale: 1, compression: .fast, saved: false, partners: []),
        path: folder + "/" + Slug.make(name) + ".png")
    }
  }

  func run(_ work: [WorkItem], budget: Int, jobs: Int, in box: CLISandbox) throws -> (
    [Int: WorkResult], WorkerPool
  ) {
    let pool = WorkerPool(
      launch: .init(
        box.workers, setup: WorkerSetup(customFonts: [], itemsPerWorker: budget)),
      size: jobs)
    var results: [Int: WorkResult] = [:]
    let finished = try pool.run(work, completed: { results[$0] = $1 })
    #expect(finished)
    return (results, pool)
  }

  @Test func everyItemIsAnsweredOnceAndWorkersAreRecycled() throws {
    let box = try CLISandbox("fonti-workers")
    let folder = box.work
    let names = ["Cantarell", "DejaVu Serif", "Noto Sans Hebrew", "D050000L", "Noto Sans Bengali"]
    let (results, pool) = try run(try items(names, in: folder), budget: 2, jobs: 2, in: box)
    #expect(results.count == 5)
    #expect(results.values.allSatisfy { $0.ok })
    #expect(results.values.allSatisfy { $0.sha256?.count == 64 })
    // Five items at two per worker: at least three processes, never more than needed.
    #expect(pool.pids.count >= 3 && pool.pids.count <= 4)
    // Workers leave whole files under temporary names beside their destinations; the parent
    // puts them in place.
    let work = try items(names, in: folder)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 5)
    let staged = StagedFiles(lanes: 2)
    for (index, result) in results {
      let temporary = try #require(result.staged)
      #expect(FileSystem.folder(of: temporary) == folder)
      #expect(SHA256.hex(file: temporary) == result.sha256)
      staged.commit(temporary, to: work[index].path)
    }
    #expect(staged.finish().isEmpty)
    let written = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(written == work.map { ($0.path as NSString).lastPathComponent }.sorted())
  }

  @Test func aMissingFamilyFailsAloneAndResultsDoNotDependOnOrder() throws {
    let box = try CLISandbox("fonti-workers")
    let work = try items(["Cantarell", "No Such Family", "DejaVu Serif"], in: box.work)
    let (one, _) = try run(work, budget: 40, jobs: 1, in: box)
    let (two, _) = try run(work, budget: 1, jobs: 2, in: box)
    for results in [one, two] {
      #expect(results[0]?.ok == true)
      #expect(results[1]?.ok == false)
      #expect(
        results[1]?.error
          == "font file '/nonexistent/No Such Family.ttf' of family 'No Such Family' is gone "
          + "(removed since the fonts were listed)")
      #expect(results[2]?.ok == true)
    }
    #expect(one[0]?.sha256 == two[0]?.sha256, "the same bytes whichever worker drew them")
  }
}
