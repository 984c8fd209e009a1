/// One JSON value kept as its JSON text, validated, and parsed only when read (as Go's
/// `json.RawMessage` and msgspec's `Raw`): how the typed model holds what the catalog declares
/// free-form, such as a raw Claude Code record (``ClaudeRecord``).
///
/// The text is always one complete, well-formed JSON value: the decoder keeps the bytes of a member
/// only after checking them as strictly as ``JSONReader`` does (UTF-8, escapes, numbers, duplicate
/// member names by exact scalars, and the decoder's ``JSONLimits``), while scanning them and without
/// building a ``JSONValue`` tree; ``init(_:)`` writes an application's own value; ``init(validating:limits:)``
/// checks bytes from elsewhere. ``MessageEncoder`` writes the text as it is.
///
/// Equality and hashing are by JSON value (``value``, as ``JSONValue`` compares: members in order,
/// number literals as written), so a record decoded from a frame equals the same record built from a
/// ``JSONValue``, whatever whitespace or escapes the frame used; equal bytes are equal at once.
public struct RawJSON: Sendable, Hashable {
  /// The JSON text of the value (UTF-8). A value the decoder kept is a slice of the frame it was read
  /// from, sharing the frame's storage: no copy and no allocation of its own, but while any such
  /// value lives, the whole frame's bytes (at most ``JSONLimits/maxFrameBytes``) stay in memory.
  @usableFromInline package let text: ArraySlice<UInt8>

  /// The JSON text of the value (UTF-8), as received or as ``JSONWriter`` wrote it. A copy when the
  /// value is part of a larger frame (the decoder's); ``detached`` keeps the value without the frame.
  public var bytes: [UInt8] { Array(text) }

  /// The same value on a copy of its bytes: keeping it does not keep the frame it was decoded from.
  public var detached: RawJSON { RawJSON(validatedBytes: Array(text)) }

  /// Bytes already checked as one JSON value (by the decoder's scan or a writer).
  package init(validatedBytes bytes: [UInt8]) {
    text = bytes[...]
  }

  /// Part of a frame already checked as one JSON value (the decoder's scan), kept where it lies.
  package init(validatedSlice text: ArraySlice<UInt8>) {
    self.text = text
  }

  /// The JSON text of `value`, as ``JSONWriter`` writes it.
  public init(_ value: JSONValue) {
    var writer = JSONWriter()
    writer.write(value)
    text = writer.bytes[...]
  }

  /// Keeps `bytes` after checking them as one complete JSON text within `limits` (``JSONReader``'s
  /// rules; the error says what is wrong).
  public init(validating bytes: [UInt8], limits: JSONLimits = .default) throws(JSONReadError) {
    _ = try JSONReader(limits: limits).parse(bytes)
    text = bytes[...]
  }

  /// The value, parsed from ``bytes`` on each call (keep the result to read it more than once).
  public var value: JSONValue {
    // The bytes were checked when this value was made, with limits no looser than these.
    let parsed = text.withUnsafeBufferPointer { try? JSONReader(limits: Self.parsingLimits).parse($0) }
    assert(parsed != nil, "RawJSON holds bytes that are not JSON")
    return parsed ?? .null
  }

  /// The limits ``value`` parses with: none, because the bytes were checked when made (within the
  /// decoder's limits, or as deep as the application's own value).
  static let parsingLimits = JSONLimits(
    maxFrameBytes: .max, maxDepth: .max, maxStringBytes: .max, maxArrayElements: .max, maxObjectMembers: .max,
    maxNumberLength: .max, maxValues: .max)

  /// The same JSON value (see the type's discussion).
  public static func == (a: RawJSON, b: RawJSON) -> Bool {
    a.text == b.text || a.value == b.value
  }

  /// Hashes the JSON value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(value)
  }
}
