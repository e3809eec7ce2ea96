import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` with the git commit the binary is built from, for `--version`.
/// It runs before every build, so the commit is never stale; outside a git checkout it
/// writes "unknown".
@main
struct BuildInfo: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
    let package = context.package.directoryURL.path
    let script = """
      set -e
      mkdir -p '\(output.path)'
      commit=$(git -C '\(package)' rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
      if [ "$commit" != unknown ] && [ -n "$(git -C '\(package)' status --porcelain --untracked-files=no 2>/dev/null)" ]; then
        commit="$commit-dirty"
      fi
      new="enum BuildInfo { static let commit = \\"$commit\\" }"
      file='\(output.path)/BuildInfo.swift'
      [ -f "$file" ] && [ "$(cat "$file")" = "$new" ] || printf '%s\\n' "$new" > "$file"
      """
    return [
      .prebuildCommand(
        displayName: "Recording the git commit for --version",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: ["-c", script],
        outputFilesDirectory: output)
    ]
  }
}
