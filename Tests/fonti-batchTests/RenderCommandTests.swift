import Foundation
import Testing

/// `render`: one specimen outside any job.
@Suite struct RenderCommandTests {
  /// Width and height from a PNG's IHDR chunk.
  func dimensions(_ data: Data) -> (Int, Int)? {
    let b = [UInt8](data.prefix(24))
    guard b.count == 24, b[12...15] == [0x49, 0x48, 0x44, 0x52] else { return nil }
    func u32(_ o: Int) -> Int {
      Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3])
    }
    return (u32(16), u32(20))
  }

  @Test func rendersAtScaleThreeToTheNamedFile() throws {
    let box = try CLISandbox("fonti-render")
    let result = try box.run([
      "render", "DejaVu Serif", "--scale", "3", "-o", "x.png", "--theme", "cream",
    ])
    #expect(result.status == 0, "\(result)")
    let data = try #require(box.read("x.png"))
    #expect(dimensions(data)?.0 == 3240 && dimensions(data)?.1 == 3240)
  }

  /// `render` draws the specimen a run draws: the same pixels, the installed "pairs well with"
  /// partners included (DejaVu Serif's curated partner Cantarell is a test font).
  @Test func drawsWhatARunDrawsPartnersIncluded() throws {
    let box = try CLISandbox("fonti-render")
    try box.write(
      "job.yaml",
      """
      version: 1
      output: out
      families: { include: ["DejaVu Serif"] }
      gallery: false
      """)
    let run = try box.run(["run", "-q", "job.yaml"])
    #expect(run.status == 0, "\(run)")
    let rendered = try box.run(["render", "DejaVu Serif", "-o", "alone.png"])
    #expect(rendered.status == 0, "\(rendered)")
    let fromRun = try #require(box.read("out/specimens/dejavu-serif.png"))
    let alone = try #require(box.read("alone.png"))
    #expect(fromRun == alone, "render and run drew different specimens")
    // And the strip is there: without partners, the specimen is another picture.
    try box.write(
      "bare.yaml",
      """
      version: 1
      output: bare
      families: { include: ["DejaVu Serif"] }
      pairings: { curated: false }
      gallery: false
      """)
    #expect(try box.run(["run", "-q", "bare.yaml"]).status == 0)
    #expect(box.read("bare/specimens/dejavu-serif.png") != alone)
  }

  @Test func defaultsToTheSlugInTheCurrentFolder() throws {
    let box = try CLISandbox("fonti-render")
    let result = try box.run([
      "render", "dejavu serif", "--text", "Hamburgefonstiv", "--size", "96",
    ])
    #expect(result.status == 0, "\(result)")
    #expect(dimensions(try #require(box.read("dejavu-serif.png")))?.0 == 1080)
  }

  /// --face sets the sample in a face named as fontconfig names it (case, spaces and hyphens
  /// aside): the bold italic by name is the picture `--bold --italic` draws, apart from the
  /// footer, which names the face; a name the family lacks is refused with the nearest one.
  @Test func drawsAFaceByName() throws {
    let box = try CLISandbox("fonti-render")
    let named = try box.run(["render", "DejaVu Serif", "--face", "bold-italic", "-o", "f.png"])
    #expect(named.status == 0, "\(named)")
    let regular = try box.run(["render", "DejaVu Serif", "-o", "r.png"])
    #expect(regular.status == 0, "\(regular)")
    #expect(try #require(box.read("f.png")) != box.read("r.png"), "the face drew the regular")
    let wrong = try box.run(["render", "DejaVu Serif", "--face", "Bold Italc", "-o", "w.png"])
    #expect(wrong.status == 2, "\(wrong)")
    #expect(wrong.stderr.contains("has no face named 'Bold Italc'"), "\(wrong)")
    #expect(wrong.stderr.contains("did you mean 'Bold Italic'?"), "\(wrong)")
    let both = try box.run(["render", "DejaVu Serif", "--face", "Bold", "--bold", "-o", "b.png"])
    #expect(both.status == 2 && both.stderr.contains("cannot be combined"), "\(both)")
    #expect(box.read("w.png") == nil && box.read("b.png") == nil)
  }

  /// A blank --text is refused as a job refuses a blank `defaults.text`: exit 2, no file.
  @Test func refusesABlankText() throws {
    let box = try CLISandbox("fonti-render")
    for blank in ["", "   ", "\t\n "] {
      let result = try box.run(["render", "DejaVu Serif", "--text", blank, "-o", "x.png"])
      #expect(result.status == 2, "\(result)")
      #expect(result.stderr.contains("--text is empty"), "\(result)")
    }
    #expect(box.list(box.work).isEmpty)
  }

  /// -o names a file, or a folder to write <slug>.png into: an existing folder, or a path
  /// ending in "/" (made when it is missing).
  @Test func writesIntoAFolderNamedByOutput() throws {
    let box = try CLISandbox("fonti-render")
    try FileManager.default.createDirectory(
      atPath: box.path("shots"), withIntermediateDirectories: true)
    for output in ["shots", "shots/", box.path("shots")] {
      try? FileManager.default.removeItem(atPath: box.path("shots/dejavu-serif.png"))
      let result = try box.run(["render", "DejaVu Serif", "-o", output])
      #expect(result.status == 0, "\(output): \(result)")
      #expect(dimensions(try #require(box.read("shots/dejavu-serif.png")))?.0 == 1080)
    }
    // A file in a folder that does not exist: a usage error, before anything is drawn.
    for file in ["nowhere/x.png", box.path("nowhere/deeper/x.png")] {
      let result = try box.run(["render", "DejaVu Serif", "-o", file])
      #expect(result.status == 2, "\(result)")
      #expect(result.stderr.contains("folder '"), "\(result)")
      #expect(result.stderr.contains("nowhere") && result.stderr.contains("' does not exist"))
    }
    #expect(box.list(box.work) == ["shots"])
    let made = try box.run(["render", "DejaVu Serif", "-o", "nowhere/"])
    #expect(made.status == 0, "\(made)")
    #expect(box.read("nowhere/dejavu-serif.png") != nil)
    let help = try box.run(["render", "--help"])
    #expect((help.stdout + help.stderr).contains("FILE.png|DIR"), "\(help)")
  }

  @Test func neverFakesAFaceAndRefusesBadValues() throws {
    let box = try CLISandbox("fonti-render")
    let italic = try box.run(["render", "Cantarell", "--italic", "-o", "c.png"])
    #expect(italic.status == 0)
    #expect(
      italic.stderr.contains(
        "warning: family 'Cantarell' has no real italic face; shown in Regular"))
    for bad in [["--size", "200"], ["--scale", "4"], ["--theme", "dark"], ["--size", "abc"]] {
      let r = try box.run(["render", "Cantarell"] + bad)
      #expect(r.status == 2, "\(bad): \(r)")
    }
    let missing = try box.run(["render", "Georgia"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("family 'Georgia' is not installed"))
    #expect(box.list(box.work).filter { $0.hasSuffix(".png") } == ["c.png"])
  }
}
