extension Worker {
  static func renderCatalogue(
    _ task: CatalogueTask, environment: FontEnvironment, find: (FamilyRef) -> FontFamily?
  ) throws -> WorkResult {
    // Replaced when the catalogue writer lands (issue 4).
    return .failure("PDF catalogues are not available in this build")
  }
}
