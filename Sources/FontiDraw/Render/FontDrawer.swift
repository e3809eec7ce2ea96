import FontiFonts
import FontiModel
import FontiText

/// What draws from the fonts a process sees (`SpecimenRenderer`, `CatalogueWriter`): a font
/// map for each drawing's families, from `fontMaps`, and the neutral face of labels.
package protocol FontDrawer: AnyObject {
  /// A drawer whose maps come from `fontMaps` (a worker's, over fontconfig's caches).
  init(fontMaps: FontMaps, labelFamily: FontFamily?)
}

extension FontDrawer {
  /// A drawer of the fonts of `environment`, with its label face.
  package init(environment: FontEnvironment) {
    self.init(
      fontMaps: FontMaps(environment: environment),
      labelFamily: environment.catalog.labelFamily)
  }
}
