/// An optional value kept behind one reference rather than inline: for a field that is most of
/// its struct's room, in a struct that a run keeps thousands of in an array, where most of them
/// hold none. Inline, each of a plan's 4,000 specimens had room for a whole previous manifest
/// entry (176 bytes) and a file record (80), set or not; behind a reference, 8 bytes each.
@propertyWrapper
public struct Indirect<Wrapped: Sendable>: Sendable {
  private final class Box: Sendable {
    let value: Wrapped
    init(_ value: Wrapped) { self.value = value }
  }

  private var box: Box?

  public init(wrappedValue: Wrapped?) {
    box = wrappedValue.map(Box.init)
  }

  public var wrappedValue: Wrapped? {
    get { box?.value }
    set { box = newValue.map(Box.init) }
  }
}
