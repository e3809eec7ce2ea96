import Foundation

/// The page `serve` answers `/` with. A bare page until the browse page lands; its policy
/// allows nothing.
public enum ServePage {
  public static func html(title: String) -> Data {
    Data("<!doctype html><meta charset=utf-8><title>\(HTML.text(title))</title>".utf8)
  }
  public static let contentSecurityPolicy = "default-src 'none'"
}
