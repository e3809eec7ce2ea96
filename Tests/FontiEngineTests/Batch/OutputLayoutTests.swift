import Testing

@testable import FontiEngine
@testable import FontiModel

/// The names the job decoder keeps free of a job's own files are the ones the engine writes.
@Test func theJobsReservedNamesAreTheEnginesOwn() {
  #expect(OutputLayout.runManifest == BatchRunner.manifestName)
  #expect(OutputLayout.runLock == BatchRunner.lockName)
}
