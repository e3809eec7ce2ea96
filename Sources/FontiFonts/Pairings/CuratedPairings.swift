import FontiModel

// The built-in pairing map: data only. Every name is the exact family name fontconfig reports
// for the Debian package named beside it (checked with fc-scan on bookworm's packages).
// Heading first, then body. No pair appears twice, in either orientation.

extension PairingMap {
  /// The curated map of heading + body pairings for open fonts that Linux systems really have.
  public static let curated = PairingMap(pairings: curatedPairings)

  /// The table behind `curated`, in the order strips prefer.
  static let curatedPairings: [Pairing] = [
    // Open stand-ins for the app's Apple pairings (see `standIns` for which is which).
    Pairing(
      heading: "TeX Gyre Heros", body: "TeX Gyre Termes",  // fonts-texgyre
      reason:
        "The classic newspaper contrast: a neutral grotesque over a compact, economical roman.",
      standsInFor: "Helvetica + Times"),
    Pairing(
      heading: "Nimbus Sans", body: "Nimbus Roman",  // fonts-urw-base35
      reason: "URW’s base-35 Helvetica and Times: the grotesque heads, the roman sets dense text.",
      standsInFor: "Helvetica + Times"),
    Pairing(
      heading: "Nimbus Sans", body: "P052",  // fonts-urw-base35
      reason:
        "A rational grotesque stays quiet so that Zapf’s broad-nib roman can carry long text.",
      standsInFor: "Helvetica Neue + Palatino"),
    Pairing(
      heading: "TeX Gyre Heros", body: "Gelasio",  // Gelasio: not packaged by Debian
      reason: "Gelasio is drawn to Georgia’s metrics: sturdy Scotch-roman text under a grotesque.",
      standsInFor: "Helvetica Neue + Georgia"),
    Pairing(
      heading: "Nimbus Sans", body: "C059",  // fonts-urw-base35
      reason: "Century Schoolbook shares Georgia’s Scotch-roman roots and big x-height.",
      standsInFor: "Helvetica Neue + Georgia"),
    Pairing(
      heading: "Lato", body: "Gelasio",  // fonts-lato
      reason: "A warm, semi-rounded sans over a sturdy screen serif; both have generous x-heights.",
      standsInFor: "Avenir Next + Georgia"),
    Pairing(
      heading: "Old Standard TT", body: "TeX Gyre Heros",  // fonts-oldstandard
      reason:
        "A high-contrast Modern (Didone) shows its hairlines at size over a monoline grotesque.",
      standsInFor: "Bodoni 72 + Helvetica Neue"),
    Pairing(
      heading: "Old Standard TT", body: "Lato",
      reason:
        "Didone contrast in the headlines over a calm, even sans: the fashion-magazine pairing.",
      standsInFor: "Bodoni 72 + Avenir Next"),
    Pairing(
      heading: "League Spartan", body: "Baskervald ADF Std",  // -league-spartan, -adf-baskervald
      reason:
        "Geometric capitals of circle and line over a crisp transitional roman: opposite builds.",
      standsInFor: "Futura + Baskerville"),
    Pairing(
      heading: "Baskervald ADF Std", body: "Lato",
      reason:
        "Baskerville’s high-contrast capitals for titles; a low-contrast sans keeps text even.",
      standsInFor: "Baskerville + Avenir Next"),
    Pairing(
      heading: "URW Gothic", body: "EB Garamond",  // fonts-urw-base35, fonts-ebgaramond
      reason:
        "Compass-drawn geometric capitals over a Renaissance old-style: opposite constructions.",
      standsInFor: "Futura + Garamond"),
    Pairing(
      heading: "TeX Gyre Adventor", body: "TeX Gyre Pagella",
      reason:
        "Round geometric headings over Pagella’s open, broad-nib bowls: geometry over the pen.",
      standsInFor: "Avenir Next + Palatino"),
    Pairing(
      heading: "TeX Gyre Adventor", body: "TeX Gyre Termes",
      reason:
        "Open geometric capitals over a narrow roman: round against upright, airy over dense.",
      standsInFor: "Futura + Times"),
    Pairing(
      heading: "Z003", body: "P052",
      reason:
        "Same designer, Hermann Zapf: his chancery italic for display over his roman for text.",
      standsInFor: "Zapf Chancery + Palatino"),
    Pairing(
      heading: "TeX Gyre Chorus", body: "TeX Gyre Pagella",
      reason: "Both follow Zapf: a chancery for headings shares Pagella’s calligraphic stress.",
      standsInFor: "Zapf Chancery + Palatino"),
    Pairing(
      heading: "URW Gothic", body: "URW Bookman",
      reason:
        "Two 1970s ITC designs (Lubalin, Benguiat) with the same huge x-height: one era’s voice.",
      standsInFor: "ITC Avant Garde Gothic + ITC Bookman"),

    // Superfamilies and companions: drawn to go together.
    Pairing(
      heading: "Noto Sans", body: "Noto Serif",  // fonts-noto-core
      reason:
        "One superfamily: matched x-height, weights and metrics, so they alternate smoothly."),
    Pairing(
      heading: "Noto Serif Display", body: "Noto Sans",
      reason:
        "Noto Serif’s high-contrast display cut for headings over the sans on the same skeleton."),
    Pairing(
      heading: "DejaVu Sans", body: "DejaVu Serif",  // fonts-dejavu-core
      reason:
        "One superfamily from Bitstream Vera: the same wide proportions and very large x-height."),
    Pairing(
      heading: "Liberation Sans", body: "Liberation Serif",  // fonts-liberation
      reason:
        "Steve Matteson drew both to Arial’s and Times’s metrics, so documents keep line breaks.",
      standsInFor: "Arial + Times New Roman"),
    Pairing(
      heading: "Linux Biolinum O", body: "Linux Libertine O",  // fonts-linuxlibertine
      reason:
        "Philipp Poll’s companions: Biolinum is built on Libertine’s proportions and modulation."),
    Pairing(
      heading: "Roboto Slab", body: "Roboto",  // fonts-roboto-slab, fonts-roboto-unhinted
      reason:
        "Christian Robertson’s slab companion: same skeleton and x-height, slabs add weight."),
    Pairing(
      heading: "Open Sans", body: "Noto Serif",  // fonts-open-sans
      reason:
        "Both by Steve Matteson: Open Sans grew from Droid Sans, Noto Serif from Droid Serif."),
    Pairing(
      heading: "Caladea", body: "Carlito",  // fonts-crosextra-caladea, fonts-crosextra-carlito
      reason:
        "The Office pairing in metric-compatible open designs: sturdy serif heads, humanist text.",
      standsInFor: "Cambria + Calibri"),

    // Contrast of structure: a sans and a serif that share proportions or temperament.
    Pairing(
      heading: "Lato", body: "EB Garamond",
      reason:
        "A warm semi-rounded sans over a Renaissance old-style: contrast of build, shared calm."),
    Pairing(
      heading: "Inter Display", body: "Noto Serif",  // fonts-inter
      reason:
        "Inter’s tightly spaced display cut over a sturdy serif with the same tall x-height."),
    Pairing(
      heading: "EB Garamond", body: "Inter",
      reason:
        "Garamond’s classical capitals give titles a voice; Inter stays neutral at text sizes."),
    Pairing(
      heading: "Inter", body: "TeX Gyre Termes",
      reason:
        "Inter’s even, neutral headings over Times’s narrow text: two workhorses, no rivalry."),
    Pairing(
      heading: "Cantarell", body: "DejaVu Serif",  // fonts-cantarell
      reason:
        "Both made for screens: Cantarell’s open humanist heads over DejaVu Serif’s sturdy text."),
    Pairing(
      heading: "Cantarell", body: "Gentium Book Plus",  // fonts-sil-gentiumplus
      reason:
        "Humanist sans heads over Gentium’s calligraphic, low-contrast text: both open and calm."),
    Pairing(
      heading: "Noto Sans", body: "Gentium Plus",
      reason:
        "Both cover Latin, Greek and Cyrillic in depth, so multilingual pages keep to two voices."),
    Pairing(
      heading: "Open Sans", body: "Charis SIL",  // fonts-sil-charis
      reason:
        "Open apertures on both sides: a humanist sans over SIL’s sturdy Charter, for long reads."),
  ]

  /// The proprietary families the app pairs and the open designs that stand in for them here.
  public static let standIns: [StandIn] = [
    StandIn(
      family: "Helvetica", open: ["Nimbus Sans", "TeX Gyre Heros"],
      note: "Nimbus Sans is URW’s licensed Helvetica, metric-compatible; TeX Gyre Heros derives "
        + "from it. Liberation Sans matches Arial’s metrics, not Helvetica’s design."),
    StandIn(
      family: "Helvetica Neue", open: ["Nimbus Sans", "TeX Gyre Heros"],
      note: "No open Neue Helvetica exists; the original Helvetica design is the nearest."),
    StandIn(
      family: "Times", open: ["Nimbus Roman", "TeX Gyre Termes"],
      note: "Nimbus Roman is URW’s Times, metric-compatible; TeX Gyre Termes derives from it."),
    StandIn(
      family: "Palatino", open: ["P052", "TeX Gyre Pagella"],
      note: "P052 is URW’s Palatino, metric-compatible; TeX Gyre Pagella derives from it."),
    StandIn(
      family: "Georgia", open: ["Gelasio", "C059", "TeX Gyre Schola"],
      note: "Gelasio is metric-compatible with Georgia but not packaged by Debian (add it with "
        + "'fonts:'); C059 and TeX Gyre Schola (Century Schoolbook) share Georgia’s Scotch-roman "
        + "lineage and large x-height."),
    StandIn(
      family: "Baskerville", open: ["Baskervald ADF Std"],
      note: "Arkandis’s Baskerville revival (fonts-adf-baskervald); Libre Baskerville is not "
        + "packaged by Debian."),
    StandIn(
      family: "Bodoni 72", open: ["Old Standard TT"],
      note: "A revival of late-19th-century Modern (Didone) romans (fonts-oldstandard); no true "
        + "Bodoni revival is packaged by Debian."),
    StandIn(
      family: "Futura", open: ["League Spartan", "URW Gothic", "TeX Gyre Adventor"],
      note: "League Spartan revives ATF’s Spartan, itself modelled on Futura; URW Gothic and TeX "
        + "Gyre Adventor are ITC Avant Garde Gothic, a later geometric in the same line."),
    StandIn(
      family: "Avenir Next", open: ["Lato", "TeX Gyre Adventor"],
      note: "No open Avenir design is packaged by Debian: Lato has its warm, semi-geometric tone, "
        + "TeX Gyre Adventor its geometric construction."),
    StandIn(
      family: "Zapf Chancery", open: ["Z003", "TeX Gyre Chorus"],
      note: "Z003 is URW’s Zapf Chancery; TeX Gyre Chorus derives from it."),
    StandIn(
      family: "Arial", open: ["Liberation Sans"], note: "Metric-compatible with Arial."),
    StandIn(
      family: "Times New Roman", open: ["Liberation Serif"],
      note: "Metric-compatible with Times New Roman."),
    StandIn(family: "Calibri", open: ["Carlito"], note: "Metric-compatible with Calibri."),
    StandIn(family: "Cambria", open: ["Caladea"], note: "Metric-compatible with Cambria."),
  ]

  /// The stand-in entry for a proprietary family, compared case-insensitively.
  public static func standIn(for family: String) -> StandIn? {
    standIns.first { $0.family.lowercased() == family.lowercased() }
  }
}
