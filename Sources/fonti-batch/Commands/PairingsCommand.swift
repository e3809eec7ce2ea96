import FontiFonts
import FontiModel
import FontiSupport
import Foundation

extension Commands {
  static let pairings = CommandSpec(
    words: ["pairings"], arguments: "[FAMILY]",
    summary: "the curated heading + body pairing map, or one family's partners",
    details: """
      Without FAMILY: every pairing of the built-in map, heading first, with the reason for it;
      a family this machine lacks is marked 'not installed' (strips and sheets leave such
      pairings out). With FAMILY: its partners, the role each plays (heading or body) and
      whether each is installed. Imported fonts count as installed. Several pairings are open
      stand-ins for the app's Apple pairings (Helvetica Neue, Georgia, Palatino, Baskerville,
      Bodoni 72, Avenir Next, Futura); each says which.
      --json prints an array of {heading, body, reason, headingInstalled, bodyInstalled} (and
      standsInFor when the pairing stands in for a proprietary one).
      """,
    maxPositionals: 1,
    options: [.flag("--json", help: "a JSON array for scripts")],
    run: { invocation, console in
      let (environment, warnings) = try FontEnvironment.load()
      console.report(warnings)
      let listing = PairingListing(map: .curated, catalog: environment.catalog)
      guard let name = invocation.positionals.first else {
        let entries = listing.entries(listing.map.pairings)
        console.out(invocation.has("--json") ? try listing.json(entries) : listing.table(entries))
        return .success
      }
      let family = try listing.map.resolve(invocation.family(name), catalog: listing.catalog)
      let entries = listing.entries(listing.map.pairings(with: family))
      console.out(
        invocation.has("--json")
          ? try listing.json(entries) : listing.partnersTable(of: family, entries: entries))
      return .success
    })
}

/// The `pairings` listing: the map, or one family's partners, with what is installed.
struct PairingListing {
  /// One pairing as `pairings --json` prints it.
  struct Entry: Encodable {
    var heading: String
    var body: String
    var reason: String
    var headingInstalled: Bool
    var bodyInstalled: Bool
    var standsInFor: String?
  }

  var map: PairingMap
  var catalog: FontCatalog

  func isInstalled(_ family: String) -> Bool { catalog.family(named: family) != nil }

  func entries(_ pairings: [Pairing]) -> [Entry] {
    pairings.map {
      Entry(
        heading: $0.heading, body: $0.body, reason: $0.reason,
        headingInstalled: isInstalled($0.heading), bodyInstalled: isInstalled($0.body),
        standsInFor: $0.standsInFor)
    }
  }

  func json(_ entries: [Entry]) throws -> String {
    String(decoding: try JSONEncoder(.pretty).encodeDocument(entries), as: UTF8.self)
  }

  /// "NAME" or "NAME (not installed)", safe for a terminal.
  func label(_ family: String, installed: Bool) -> String {
    Sanitize.terminal(family) + (installed ? "" : " (not installed)")
  }

  /// The whole map: one pairing per line, the reason (and stand-in note) indented under it.
  func table(_ entries: [Entry]) -> String {
    var out = ""
    for e in entries {
      out +=
        "\(label(e.heading, installed: e.headingInstalled)) + "
        + "\(label(e.body, installed: e.bodyInstalled))\n"
      out += "    \(Sanitize.terminal(e.reason))\n"
      if let s = e.standsInFor { out += "    open stand-in for \(Sanitize.terminal(s))\n" }
    }
    let families = map.families
    let missing = families.filter { !isInstalled($0) }.count
    out += "\n\(entries.count) pairings over \(families.count) families"
    out += missing == 0 ? ".\n" : "; \(missing) not installed (left out of strips and sheets).\n"
    return out
  }

  /// One family's partners: name, role, installed or not, then the reason.
  func partnersTable(of family: String, entries: [Entry]) -> String {
    let shown = label(family, installed: isInstalled(family))
    guard !entries.isEmpty else {
      return "\(shown) has no curated partners ('fonti-batch pairings' lists the map).\n"
    }
    var out = "\(shown) pairs well with:\n"
    for e in entries {
      let partnerIsHeading = e.heading.lowercased() != family.lowercased()
      let partner = partnerIsHeading ? e.heading : e.body
      let installed = partnerIsHeading ? e.headingInstalled : e.bodyInstalled
      let role = partnerIsHeading ? "as heading" : "as body"
      out += "\n  \(label(partner, installed: installed)), \(role)\n"
      out += "      \(Sanitize.terminal(e.reason))\n"
      if let s = e.standsInFor { out += "      open stand-in for \(Sanitize.terminal(s))\n" }
    }
    return out
  }
}
