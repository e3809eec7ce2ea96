import FontiModel
import FontiSupport

/// The lock on an output folder (`.fonti-batch.lock` in it), so that two runs (or reviews)
/// never write the same files or manifest at once. Taken without waiting: a second run is told
/// at once. Held until this object goes.
public final class OutputLock {
  private let lock: FileLock

  /// Takes the lock without waiting; throws a clear error when another run holds it.
  public init(folder: String) throws(Diagnostic) {
    switch FileLock.attempt(folder + "/" + OutputLayout.runLock) {
    case .success(let taken?):
      lock = taken
    case .success(nil):
      throw .error(
        "another fonti-batch run is writing to '\(folder)'; wait for it to finish",
        hint: "a run does not wait for another: run again when it has finished, or use -o to "
          + "write elsewhere")
    case .failure(let error):
      throw .error("cannot lock output folder '\(folder)': \(FileSystem.describe(error.code))")
    }
  }
}
