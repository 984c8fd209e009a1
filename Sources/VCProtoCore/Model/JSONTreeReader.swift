import VCProtoJSON

/// The tree reader: the generated model reads a value already parsed into a ``JSONValue`` (the tree
/// path after the bytes reader missed, ``MessageDecoder/decode(tree:)``, a validated report, the
/// chosen alternative of a `oneOf` member).
///
/// It accepts exactly what the validator accepts of the value's type: any member name (matched by its
/// exact Unicode scalars), the members in any order, `null` elements where the element type allows
/// them. Its objects come from ``JSONReader``, whose keys are unique, so it does not look for repeated
/// names. A refusal is a ``DirectPathError/miss(at:)``; the validator says why.
package struct JSONTreeReader: ModelReader {
  /// Where the reader is within an object: its members and the index of the next one.
  package struct Cursor {
    package let members: [JSONObject.Member]
    package var index = 0
  }

  /// The value read next.
  private var current: JSONValue
  package var sawExtraMember = false
  /// No bound by default: a validated tree has had its lists checked by the validator.
  package var handshakeListLimit: Int
  package var keyChecks = 0

  /// A reader whose next value is `value`.
  package init(_ value: JSONValue, handshakeListLimit: Int = .max) {
    current = value
    self.handshakeListLimit = handshakeListLimit
  }

  package mutating func beginObject(typeConsumed: Bool) throws(DirectPathError) -> Cursor {
    assert(!typeConsumed, "the tree reader reads every member itself")
    guard case .object(let object) = current else { throw miss() }
    return Cursor(members: object.members)
  }

  package mutating func nextKey(_ cursor: inout Cursor) throws(DirectPathError) -> String? {
    guard cursor.index < cursor.members.count else { return nil }
    let member = cursor.members[cursor.index]
    cursor.index += 1
    current = member.value
    return member.key
  }

  package func length(of key: String) -> Int { key.utf8.count }

  package func keyIs(_ key: String, _ name: StaticString) -> Bool {
    keyIs(key, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
  }

  package func keyIs(_ key: String, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    key.utf8.count == name.count && key.utf8.elementsEqual(name)
  }

  package func keyString(_ key: String) -> String { key }

  package func miss(_ key: String) -> DirectPathError { .miss(at: 0) }

  package func miss() -> DirectPathError { .miss(at: 0) }

  package mutating func readNull() -> Bool {
    if case .null = current { return true }
    return false
  }

  package mutating func readString() throws(DirectPathError) -> String {
    guard case .string(let s) = current else { throw miss() }
    return s
  }

  package mutating func readInt() throws(DirectPathError) -> Int {
    guard let v = current.intValue else { throw miss() }
    return v
  }

  package mutating func readDouble() throws(DirectPathError) -> Double {
    guard let v = current.doubleValue else { throw miss() }
    return v
  }

  package mutating func readBool() throws(DirectPathError) -> Bool {
    guard case .bool(let b) = current else { throw miss() }
    return b
  }

  package mutating func readValue() throws(DirectPathError) -> JSONValue { current }

  package mutating func readArray<Element>(
    _ element: (inout JSONTreeReader) throws(DirectPathError) -> Element
  ) throws(DirectPathError) -> [Element] {
    guard case .array(let items) = current else { throw miss() }
    var out: [Element] = []
    out.reserveCapacity(items.count)
    for item in items {
      current = item
      out.append(try element(&self))
    }
    return out
  }

  package mutating func readEnum<E: JSONStringEnum>(_: E.Type) throws(DirectPathError) -> E {
    guard case .string(let s) = current, let v = E.exactly(s) else { throw miss() }
    return v
  }

  package mutating func readType(is name: StaticString) -> Bool {
    guard case .string(let s) = current else { return false }
    return keyIs(s, name)
  }

  /// `nil`: the caller reads the tree.
  package mutating func readScanned(_ shape: ScannedShape, capturing captured: Int) throws(DirectPathError) -> (
    RawJSON, ScannedCapture?
  )? { nil }

  package mutating func readExtra(_ key: String, into extra: inout [JSONObject.Member], warns: Bool)
    throws(DirectPathError)
  {
    extra.append(JSONObject.Member(key: key, value: current))
    if warns { sawExtraMember = true }
  }
}

extension ModelReadable {
  /// Reads the value from a parsed tree (``JSONTreeReader``); `nil` when it breaks a rule (the
  /// validator says which).
  package static func read(tree value: JSONValue, handshakeListLimit: Int = .max) -> Self? {
    var reader = JSONTreeReader(value, handshakeListLimit: handshakeListLimit)
    return try? read(&reader)
  }
}
