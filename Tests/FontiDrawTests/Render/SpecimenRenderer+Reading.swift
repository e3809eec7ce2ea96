import FontiDraw
import FontiModel
import FontiText

extension SpecimenRenderer {
  /// Renders `request` as its callers do: its proofs read first, then handed to the drawing.
  func render(_ request: SpecimenRequest<FontFamily>, to path: String) throws(RenderError)
    -> SpecimenResult
  {
    try render(request, proofs: request.readProofs(), to: path)
  }
}
