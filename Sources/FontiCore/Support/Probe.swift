internal import CCairo
internal import CPango
internal import CFontconfig
internal import CYAML
internal import CPNG
internal import CQPDF

enum Probe {
  static func versions() -> String {
    "\(String(cString: cairo_version_string())) \(String(cString: pango_version_string())) \(FcGetVersion()) \(String(cString: yaml_get_version_string())) \(String(cString: png_get_libpng_ver(nil))) \(String(cString: qpdf_get_qpdf_version()))"
  }
}
