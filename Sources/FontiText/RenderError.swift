/// Why a family could not be drawn; the run reports it and goes on with the others.
public struct RenderError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
