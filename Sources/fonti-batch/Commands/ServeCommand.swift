import FontiServe
import FontiSupport
import Foundation

/// `fonti-batch serve [JOB]`: the job's families live in a browser (docs/serve.md).
enum ServeCommand {
  static let spec = CommandSpec(
    words: ["serve"], arguments: "[JOB]",
    summary: "the job's families live in a browser: type, size, B/I, heart, share",
    details: """
      Starts a local web server and prints its address, with a token that changes at every
      start; open it in a browser. Every card is drawn on the server, as `render` draws it, for
      the text typed; the heart saves to the job's favourites manifest; "Share" downloads the
      PNG. The page follows the job file and the font files: a rebuilt font, a job edited, a
      favourite saved beside it show without a reload; a job that stops validating shows its
      errors on the page while the last good state stays served. JOB defaults to
      ./specimens.yaml. Listens on 127.0.0.1 unless --host says otherwise; Ctrl-C stops it
      (exit 130).
      """,
    maxPositionals: 1,
    options: [
      .value("--port", as: "N", help: "the port to listen on (default 8800; 0: any free port)"),
      .value(
        "--host", as: "ADDR",
        help: "the IP address to listen on (default 127.0.0.1; 0.0.0.0 exposes the fonts)"),
      .flag("--open", help: "open the address in the desktop's browser (xdg-open)"),
    ],
    run: { invocation, console in
      let path = invocation.positionals.first ?? "specimens.yaml"
      if path == "-" {
        throw UsageError(
          message: "serve follows its job file as it changes: name a file, not '-'",
          command: invocation.command)
      }
      var options = LiveServer.Options(job: path)
      options.port = Int(
        try invocation.number("--port", default: 8800, range: 0...65535, integer: true))
      if let host = invocation.value("--host") { options.host = host }
      Signals.install()
      let server = try LiveServer(options)
      WarningReport(console: console).print(server.warnings)
      if options.host != "127.0.0.1" && options.host != "::1" {
        console.warning(
          "serving on \(Sanitize.terminal(options.host)) exposes the fonts and the favourites to "
            + "the network; the token guards only changes")
      }
      let address: String
      do {
        address = try server.start()
      } catch {
        throw Diagnostic.error("\(error)")
      }
      console.line("serving \(address)  (Ctrl-C stops)")
      if invocation.has("--open") { open(address) }
      if Signals.interrupted { return Signals.exitCode }
      let stopped = server.run()
      return stopped == SIGTERM ? .terminated : .interrupted
    })

  /// Hands the address to the desktop's opener, without waiting for it.
  static func open(_ address: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["xdg-open", address]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try? process.run()
  }
}
