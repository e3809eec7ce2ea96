// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "fonti-batch",
  targets: [
    // C libraries, reached through pkg-config. Module maps and shims only.
    .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
    .systemLibrary(
      name: "CPango", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
    .systemLibrary(
      name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig1-dev"])]),
    .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
    // libpng writes the PNG files; ISA-L's igzip compresses their rows (see CPNG's shim).
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev", "libisal-dev"])]),
    // qpdf's header only: the library is loaded when a catalogue is finished (see its shim),
    // so pkg-config's -lqpdf is not wanted. The header is in the default include path.
    .systemLibrary(name: "CQPDF", providers: [.apt(["libqpdf-dev"])]),
    .systemLibrary(
      name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
    // FreeType: WOFF and WOFF2 web fonts decoded into the sfnt fontconfig, Pango and HarfBuzz
    // load (Debian's FreeType links brotli and zlib; Cairo and fontconfig load it anyway).
    .systemLibrary(
      name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
    // SHA-256: Nettle's, which uses the CPU's SHA instructions (five times GLib's GChecksum).
    .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
    // `serve`: GLib's main loop and GIO's sockets and file monitors (Pango loads them anyway).
    .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
    // glibc's malloc_trim, which Glibc's Swift module does not bring.
    .systemLibrary(name: "CSystem"),

    // Pango's font matching on the calling thread, not two new threads a pattern (see its
    // source): the one C file of the package, an override of GLib's g_thread_new.
    .target(name: "CPangoMatch", dependencies: ["CPango"]),
    // libsoup 3's HTTP server for `serve`, loaded when first used rather than linked (see its
    // header); libsoup-3.0-dev is only needed for the library itself to be installed.
    .target(name: "CSoup", dependencies: ["CGio"], linkerSettings: [.linkedLibrary("dl")]),

    // The tool's layers, bottom to top: each imports only targets below it and only the C
    // modules listed here (docs/architecture.md). None of them prints.

    // Files, locks, hashing, diagnostics.
    .target(name: "FontiSupport", dependencies: ["CNettle", "CSystem"]),
    // The job file and its values, the manifests, the settings: plain values, libyaml only.
    .target(name: "FontiModel", dependencies: ["FontiSupport", "CYAML"]),
    // Every other C library behind Swift wrappers: Cairo, Pango, fontconfig, HarfBuzz, libpng,
    // qpdf, FreeType (web fonts); and the font maps drawings are set with.
    .target(
      name: "FontiText",
      dependencies: [
        "FontiSupport", "FontiModel", "CCairo", "CPango", "CFontconfig", "CHarfBuzz", "CPNG",
        "CQPDF", "CPangoMatch", "CFreeType",
      ]),
    // The fonts: the catalogue of families, languages, proof readers, pairings.
    .target(name: "FontiFonts", dependencies: ["FontiSupport", "FontiModel", "FontiText"]),
    // What is drawn from fonts: specimens, pairing sheets, catalogues, the gallery.
    .target(
      name: "FontiDraw", dependencies: ["FontiSupport", "FontiModel", "FontiText", "FontiFonts"]),
    // `diff`: two versions of fonts compared, and the review drawn.
    .target(
      name: "FontiDiff", dependencies: ["FontiSupport", "FontiModel", "FontiText", "FontiFonts"]),
    // Running a job: the plan, the worker processes, shards, the favourites store.
    .target(
      name: "FontiEngine",
      dependencies: [
        "FontiSupport", "FontiModel", "FontiText", "FontiFonts", "FontiDraw", "FontiDiff",
      ]),
    // `serve`: the live page over HTTP (libsoup through CSoup, GLib's loop through CGio). The
    // page's style sheet and script are built into the binary (no bundle beside it to install).
    .target(
      name: "FontiServe",
      dependencies: [
        "FontiSupport", "FontiModel", "FontiText", "FontiFonts", "FontiDraw", "FontiEngine",
        "CGio", "CSoup",
      ],
      resources: [.embedInCode("ServePage.css"), .embedInCode("ServePage.js")]),

    // The thin command-line front end.
    .executableTarget(
      name: "fonti-batch",
      dependencies: [
        "FontiSupport", "FontiModel", "FontiText", "FontiFonts", "FontiDraw", "FontiDiff",
        "FontiEngine", "FontiServe",
      ],
      plugins: [.plugin(name: "BuildInfo")]),
    .plugin(name: "BuildInfo", capability: .buildTool()),

    // Tests mirror the library targets: a target's tests depend on it and the layers below.
    // TestSupport finds the fixtures and goldens every test target shares; FontTestSupport
    // opens the fixture fonts; BrowserSupport drives headless Chromium.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .target(
      name: "FontTestSupport", dependencies: ["TestSupport", "FontiText", "FontiFonts"],
      path: "Tests/FontTestSupport"),
    .target(name: "BrowserSupport", path: "Tests/BrowserSupport"),
    // `make bench-serve`'s browser half: serve's page in headless Chromium (not a product).
    .executableTarget(
      name: "serve-browser-bench", dependencies: ["BrowserSupport"],
      path: "Benchmarks/ServeBrowser"),
    .testTarget(name: "FontiSupportTests", dependencies: ["FontiSupport", "TestSupport"]),
    .testTarget(
      name: "FontiModelTests", dependencies: ["FontiSupport", "FontiModel", "TestSupport"]),
    .testTarget(
      name: "FontiTextTests",
      dependencies: [
        "FontiSupport", "FontiModel", "FontiText", "FontTestSupport", "TestSupport", "CCairo",
      ]),
    .testTarget(
      name: "FontiFontsTests",
      dependencies: [
        "FontiSupport", "FontiModel", "FontiText", "FontiFonts", "FontTestSupport", "TestSupport",
        "CFontconfig",
      ]),
    .testTarget(
      name: "FontiDrawTests",
      dependencies: [
        "FontiSupport", "FontiModel", "FontiText", "FontiFonts", "FontiDraw", "BrowserSupport",
        "FontTestSupport", "TestSupport", "CCairo", "CFontconfig", "CPango",
      ]),
    .testTarget(
      name: "FontiDiffTests",
      dependencies: [
        "FontiSupport", "FontiModel", "FontiText", "FontiFonts", "FontiDiff", "FontTestSupport",
        "TestSupport", "CCairo",
      ]),
    .testTarget(
      name: "FontiEngineTests",
      dependencies: [
        "FontiSupport", "FontiModel", "FontiFonts", "FontiDraw", "FontiDiff", "FontiEngine",
        "FontTestSupport", "TestSupport",
      ]),
    .testTarget(
      name: "FontiServeTests", dependencies: ["FontiDraw", "FontiServe", "BrowserSupport"]),
    .testTarget(
      name: "fonti-batchTests",
      dependencies: [
        "FontiSupport", "FontiModel", "FontiFonts", "FontiDraw", "FontiEngine", "FontiServe",
        "BrowserSupport", "TestSupport",
      ]),
  ]
)
