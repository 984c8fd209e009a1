/// A string hashed and compared by its exact UTF-8 bytes (the same Unicode scalars), never by
/// canonical equivalence as `String`'s `==` and hash are: `"e\u{301}"` and `"\u{e9}"` are two keys.
///
/// Every string a peer chooses and the engines or the observer compare or hash — a message id, an
/// idempotency key, a session id, a request's correlation value, a signature, a challenge — is a key
/// of this kind, or compared with `String.hasSameScalars(as:)` (its `==`) or
/// `JSONValue.isExactly(_:)`, or hashed by its bytes (`SessionKey`, `MessageIDMemory`), so two
/// spellings a peer sends are never taken for one (STANDARDS.md#exact-identifiers). Member names are such keys too
/// (`MemberNames`, ``ProtocolCatalog``).
///
/// The hash feeds the bytes to `Hasher` in one call (`String`'s own hash first checks whether the
/// text is NFC and normalizes it when not), and `==` compares representations, then lengths, then
/// bytes eight at a time.
public struct ExactString: Hashable, Sendable, CustomStringConvertible {
  /// The text.
  public let text: String

  /// The key of `text`'s exact scalars.
  public init(_ text: String) {
    self.text = text
  }

  /// Whether `a` and `b` have the same Unicode scalars (the same UTF-8 bytes).
  @inline(__always)
  public static func == (a: ExactString, b: ExactString) -> Bool { a.text.hasSameScalars(as: b.text) }

  /// Feeds the text's UTF-8 bytes to `hasher`.
  public func hash(into hasher: inout Hasher) {
    if let hashed: Void = text.utf8.withContiguousStorageIfAvailable({
      hasher.combine(bytes: UnsafeRawBufferPointer($0))
    }) {
      return hashed
    }
    var copy = text
    copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }

  /// The text itself.
  public var description: String { text }
}
