import FontiModel
import FontiSupport
import Foundation

/// The lock on an output folder (`.fonti-batch.lock` in it), so that two runs (or reviews)
/// never write the same files or manifest at once. Taken without waiting: a second run is told
/// at once. Held until this object goes.
///
/// While it is held the folder is registered as an output folder (`OutputFolder`): nothing
/// written inside it goes through a link.
public final class OutputLock {
  private let lock: FileLock
  private let registration: OutputFolder.Registration

  /// Takes the lock without waiting; throws a clear error when another run holds it.
  public init(folder: String) throws(Diagnostic) {
    registration = try OutputFolder.register(folder)
    let path = folder + "/" + OutputLayout.runLock
    switch FileLock.attempt(path) {
    case .success(let taken?):
      lock = taken
    case .success(nil):
      throw .error(
        "another fonti-batch run is writing to '\(folder)'; wait for it to finish",
        hint: "a run does not wait for another: run again when it has finished, or use -o to "
          + "write elsewhere")
    case .failure(let error) where error.code == ELOOP:
      throw .error(
        "cannot lock output folder '\(folder)': '\(path)' is a symbolic link, and fonti-batch "
          + "never writes through a link inside its output folder",
        hint: "remove the link")
    case .failure(let error):
      throw .error("cannot lock output folder '\(folder)': \(FileSystem.describe(error.code))")
    }
  }
}
