import FontiSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The commented example job that `fonti-batch init` writes.
///
/// Byte for byte the same as `specimens.yaml.example` at the root of the repository (a test
/// checks it): a complete job that passes `check` on a fresh Debian machine with only
/// `fonts-dejavu-core`.
public enum ExampleJob {
  /// The file's text, ending with a newline.
  public static let text = #"""
    # fonti-batch job file: type specimens in batch.
    #
    #   fonti-batch check specimens.yaml    validate this file and every font it names
    #   fonti-batch run specimens.yaml      render everything it asks for
    #
    # Relative paths are relative to this file. Only `version` is required; a key left
    # out takes its default (a key left empty is an error: say what it is, or leave it out).

    version: 1                           # the job file format; this fonti-batch reads version 1
    title: Winter type review            # cover page and PDF metadata
    author: Studio North                 # optional, PDF metadata
    output: output                       # folder for everything written (relative or absolute)

    defaults:                            # the sample every specimen shows
      text: Sphinx of black quartz, judge my vow.
      language: en                       # BCP 47 tag of the text (shaping, `locl` forms); default en
      size: 48                           # pt, 12–96
      theme: ink                         # ink (dark) | cream (light)
      # variations: { wght: 650 }        # variable fonts' coordinates; out of a family's range: warned
      # features: [onum, -liga]          # OpenType features for the samples: smcp, -liga, cv01=2

    texts:                               # more sample texts: extra lines on catalogue pages
      - The quick brown fox jumps over the lazy dog
      - "0123456789 — “quotes”, & fi fl ffi"

    families:                            # which families (default: every installed family)
      include: ["DejaVu*"]               # exact names or globs, case-insensitive; ["*"] for all
      exclude: []                        # e.g. ["*Emoji*", "Noto Sans * UI"]
      # languages: [vi, pl]              # only families that can set every listed language

    # fonts:                             # custom fonts, used without installing them
    #   - fonts/                         # files or folders (.ttf .otf .ttc .otc .woff .woff2), searched recursively

    sizes: [12, 18, 24, 36, 48, 72, 96]  # waterfall on catalogue pages, 4–400 pt, at most 32
    styles: [regular, bold, italic, bold-italic]  # or all, or face names: [Light, Semibold Italic]

    pairings:
      curated: true                      # include the built-in heading + body map
      extra:                             # your own pairings, always rendered
        - { heading: DejaVu Serif, body: DejaVu Sans }

    favourites:
      save: [DejaVu Serif]               # hearted in this run (added to the manifest)
      manifest: favourites.json          # relative to output; this is the default

    png:
      edge: 1080                         # px of the square, 256–4096, before scale
      scale: 1                           # 1, 2 or 3 (scale 3 → 3240×3240)
      compression: fast                  # fast (default) | small

    proofs:                              # what catalogue pages and manifest.json show beyond the sample
      axes: true                         # variable fonts: named instances, each axis swept min → max
      features: true                     # OpenType features, each shown off / on where it changes the text
      languages: true                    # languages the family can set; what it lacks for those it nearly can
      glyphs: false                      # a chart of every encoded character, by Unicode block

    catalogues:                          # PDFs; omitted: one catalogue.pdf; []: none
      - file: catalogue.pdf              # all selected families, pairings, saved
        page: a4                         # a4 | letter | square
        theme: cream                     # ink | cream (the default: kinder to printers)
      - file: saved.pdf
        families: saved                  # only the favourites; or all, or a list of names and globs

    gallery: true                        # index.html + thumbs/: a page to browse it all; false: none
    """#
    + "\n"
}

extension ExampleJob {
  /// Writes the example to `path` (or to `path/specimens.yaml` when `path` is a folder) and
  /// returns the path written. Never replaces an existing file, not even one created meanwhile
  /// (`FileSystem.createNew`); a reader never sees a half-written file.
  public static func write(to path: String) throws(DiagnosticError) -> String {
    func fail(_ message: String, hint: String? = nil) -> DiagnosticError {
      DiagnosticError(.error(message, hint: hint))
    }
    var target = path
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      target = path.hasSuffix("/") ? path + "specimens.yaml" : path + "/specimens.yaml"
    }
    let exists = fail(
      "'\(target)' already exists; not overwriting it",
      hint: "remove it first, or name another file: fonti-batch init other.yaml")
    if FileSystem.exists(target) { throw exists }
    let folder = JobPath.directory(of: target)
    if stat(folder, &info) != 0 || info.st_mode & S_IFMT != S_IFDIR {
      throw fail("cannot write '\(target)': the folder '\(folder)' does not exist")
    }
    do {
      // A file the user owns: the umask decides its permissions, as for any file they make.
      try FileSystem.createNew(Data(text.utf8), at: target, mode: 0o666)
    } catch {
      switch error {
      case .exists: throw exists
      case .failed(let code): throw fail("cannot write '\(target)': \(FileSystem.describe(code))")
      }
    }
    return target
  }
}
