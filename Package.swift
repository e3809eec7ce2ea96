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

    // Everything the tool does; never prints.
    .target(
      name: "FontiCore",
      dependencies: [
        "CCairo", "CPango", "CFontconfig", "CYAML", "CPNG", "CQPDF", "CHarfBuzz", "CNettle",
        "CSystem", "CPangoMatch", "CGio", "CSoup",
      ]),

    // The thin command-line front end.
    .executableTarget(
      name: "fonti-batch", dependencies: ["FontiCore"], plugins: [.plugin(name: "BuildInfo")]),
    .plugin(name: "BuildInfo", capability: .buildTool()),

    .testTarget(
      name: "FontiCoreTests", dependencies: ["FontiCore", "BrowserSupport"],
      exclude: ["Goldens"], resources: [.copy("Fixtures")]),
    .testTarget(name: "fonti-batchTests", dependencies: ["FontiCore", "BrowserSupport"]),
    // Headless Chromium for the web gallery's tests, shared by both test targets.
    .target(name: "BrowserSupport", path: "Tests/BrowserSupport"),
  ]
)
