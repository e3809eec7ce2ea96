import FontiSupport
import Foundation

extension FavouritesManifest {
  // MARK: Decoding with clear errors

  /// Decodes a manifest, turning every failure into an error that names the file, says what is
  /// wrong and that the file was left untouched.
  package static func decode(_ data: Data, file: String) throws(Diagnostic) -> FavouritesManifest {
    let hint =
      "the file was left as it is; repair it, restore it from a backup, or move it aside to "
      + "start a new list"
    func refuse(_ message: String, at mark: Mark? = nil) -> Diagnostic {
      .error(message, file: file, at: mark, hint: hint)
    }
    // Where the decoder's complaint is in the file: Foundation names the value, not its place.
    let bytes = [UInt8](data)
    func mark(_ path: [CodingKey]) -> Mark? {
      JSONLocation.offset(of: path, in: bytes).map { lineAndColumn(data, offset: $0) }
    }
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      throw refuse("is empty: not a favourites manifest")
    }
    do {
      return try JSONDecoder().decode(FavouritesManifest.self, from: data)
    } catch let newer as FavouritesManifest.UnsupportedVersion {
      throw .error(
        "was written by a newer fonti-batch (manifest version \(newer.version); this one reads "
          + "version \(FavouritesManifest.currentVersion)); it was left untouched",
        file: file, at: mark([FavouritesManifest.CodingKeys.version]),
        hint: "use a newer fonti-batch for this manifest")
    } catch let error as DecodingError {
      switch error {
      case .dataCorrupted(let context) where context.codingPath.isEmpty:
        let (problem, mark) = syntaxProblem(data)
        throw refuse("is not valid JSON (\(problem)): not a favourites manifest", at: mark)
      case .dataCorrupted(let context):
        let location = describe(context.codingPath)
        let foreign =
          context.codingPath.count == 1
          && ["tool", "families", "counts"].contains(
            context.codingPath[0].stringValue)
        if foreign {
          throw .error(
            "is not a favourites manifest (it looks like a run's manifest.json)", file: file,
            at: mark(context.codingPath),
            hint: "pass the favourites file, e.g. --manifest output/favourites.json")
        }
        if context.debugDescription.hasPrefix("unknown key") {
          throw refuse(
            "is not a favourites manifest: \(context.debugDescription) at \(location)",
            at: mark(context.codingPath))
        }
        throw refuse(
          "is not a valid favourites manifest: \(location) \(context.debugDescription)",
          at: mark(context.codingPath))
      case .keyNotFound(let key, let context):
        let at = context.codingPath.isEmpty ? "" : " in \(describe(context.codingPath))"
        throw refuse(
          "is not a favourites manifest: '\(key.stringValue)' is missing\(at)",
          at: mark(context.codingPath))
      case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
        let expected = expectedName(type)
        if context.codingPath.isEmpty {
          throw refuse("is not a favourites manifest: expected a JSON object", at: mark([]))
        }
        throw refuse(
          "is not a valid favourites manifest: \(describe(context.codingPath)) should be "
            + expected, at: mark(context.codingPath))
      @unknown default:
        throw refuse("is not a valid favourites manifest")
      }
    } catch {
      throw refuse("is not a valid favourites manifest: \(error)")
    }
  }

  /// `saved[2].family`.
  static func describe(_ path: [CodingKey]) -> String {
    var out = ""
    for key in path {
      if let i = key.intValue {
        out += "[\(i)]"
      } else {
        out += (out.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return out.isEmpty ? "the top level" : "'\(out)'"
  }

  static func expectedName(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Int.Type: return "an integer"
    case is Bool.Type: return "true or false"
    case is [FavouritesManifest.Entry].Type: return "a list of entries"
    default:
      let name = "\(type)"
      if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") {
        return "an object"
      }
      if name.hasPrefix("Array") { return "a list" }
      return "a \(name)"
    }
  }

  /// Where and why JSON syntax is wrong, from Foundation's parser ("around character 25").
  static func syntaxProblem(_ data: Data) -> (String, Mark?) {
    if String(data: data, encoding: .utf8) == nil { return ("it is not UTF-8 text", nil) }
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      // Foundation's parser takes what the decoder refuses: a number out of range.
      return ("it holds a number out of range", nil)
    } catch {
      let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
      if detail.localizedCaseInsensitiveContains("end of file")
        || detail.localizedCaseInsensitiveContains("unexpected end")
      {
        return ("it ends early: truncated?", lineAndColumn(data, offset: data.count))
      }
      if detail.localizedCaseInsensitiveContains("nested") {
        return ("it is nested too deeply", nil)
      }
      if let range = detail.range(of: "character "),
        let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
      {
        return ("unexpected text", lineAndColumn(data, offset: offset))
      }
      return ("unreadable", nil)
    }
  }

  /// 1-based line and column (in characters) of a byte offset.
  static func lineAndColumn(_ data: Data, offset: Int) -> Mark {
    let prefix = data.prefix(max(0, min(offset, data.count)))
    let lines = prefix.split(separator: 0x0A, omittingEmptySubsequences: false)
    let last = lines.last.map { String(decoding: $0, as: UTF8.self).count } ?? 0
    return Mark(line: max(1, lines.count), column: last + 1)
  }
}
