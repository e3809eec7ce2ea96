/// The tool's version, shown by `--version`, in manifests and in PDF metadata.
public enum FontiVersion {
  public static let number = "1.0.0"
  public static var tool: String { "fonti-batch \(number)" }
}
