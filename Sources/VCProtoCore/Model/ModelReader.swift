import VCProtoJSON

/// The one source the generated model decodes from, whatever the input's form.
///
/// Each generated struct has a single decoder, `reading(_:)`, written against this protocol (as
/// swift-protobuf drives one generated `decodeMessage` from every wire format): it walks the members,
/// matches their names, reads each value with its type's ``ModelReadable`` witness and checks every
/// catalog rule (formats, ranges, closed sets, cross-member rules, a handshake's version rules) by
/// calling ``ValueRules`` and ``HandshakeRules``, which state them once. Two readers:
///
/// - ``JSONParser`` (the bytes reader): the frame's bytes, no tree (``MessageDecoder``'s direct path).
///   It recognises only what it can read outright (plain ASCII names, no repeated member, values of
///   the declared types) and otherwise misses; the caller then takes the tree path.
/// - ``JSONTreeReader`` (the tree reader): a parsed ``JSONValue``, where a tree already exists (the
///   tree path after a miss, ``MessageDecoder/decode(tree:)``, a validated report, an alternative of a
///   `oneOf` member). It reads exactly what the validator accepts.
///
/// Either way a frame is accepted exactly when the validator reports no error in it; the validator
/// alone explains a refusal. Every `read` but ``readValue()`` refuses a value of another JSON type,
/// `null` included (a miss), so the generated decoders test ``readNull()`` only where `null` is
/// allowed or the member is an object, a shape, `any` or `oneOf`. The generated code is generic and internal, so the optimiser specialises
/// it for each reader: the bytes path costs what a decoder written for the parser would.
package protocol ModelReader {
  /// A member name just read (its value comes next).
  associatedtype Key
  /// Where the reader is within the object being read.
  associatedtype Cursor

  /// Enters the object at the position. `typeConsumed`: the bytes reader has already read the
  /// object's opening and its leading `type` member (the tree reader is never called so).
  mutating func beginObject(typeConsumed: Bool) throws(DirectPathError) -> Cursor
  /// The next member's name, or `nil` after the object's last member (the object is left).
  mutating func nextKey(_ cursor: inout Cursor) throws(DirectPathError) -> Key?
  /// The name's length in UTF-8 bytes.
  func length(of key: Key) -> Int
  /// `true` when the name is exactly `name` (the same Unicode scalars, so the same UTF-8 bytes).
  func keyIs(_ key: Key, _ name: StaticString) -> Bool
  /// `true` when the name is exactly the UTF-8 bytes `name`.
  func keyIs(_ key: Key, _ name: UnsafeBufferPointer<UInt8>) -> Bool
  /// The name as a String.
  func keyString(_ key: Key) -> String
  /// The error that refuses the value of the member `key`.
  func miss(_ key: Key) -> DirectPathError
  /// The error that refuses the object being read (a missing member, a broken cross-member rule).
  func miss() -> DirectPathError

  /// Consumes a `null` value if it is next and says so.
  mutating func readNull() -> Bool
  /// Reads a string.
  mutating func readString() throws(DirectPathError) -> String
  /// Reads a string no rule looks at: the decoder only stores it (a plain member with no format, no
  /// closed set, no cross-member rule comparing its value). The bytes and tree readers return it, as
  /// ``readString()``; ``CheckingReader``, whose decoded value is never used, checks it and returns "".
  mutating func readText() throws(DirectPathError) -> String
  /// Reads an integer literal that fits in `Int`.
  mutating func readInt() throws(DirectPathError) -> Int
  /// Reads any finite number.
  mutating func readDouble() throws(DirectPathError) -> Double
  /// Reads `true` or `false`.
  mutating func readBool() throws(DirectPathError) -> Bool
  /// Reads any value whole.
  mutating func readValue() throws(DirectPathError) -> JSONValue
  /// Reads an array, each element (never `null` on the bytes reader) with `element`.
  mutating func readArray<Element>(
    _ element: (inout Self) throws(DirectPathError) -> Element
  ) throws(DirectPathError) -> [Element]
  /// Reads a string that is one of `E`'s raw values (the same Unicode scalars).
  mutating func readEnum<E: JSONStringEnum>(_: E.Type) throws(DirectPathError) -> E
  /// Reads the `type` member's value and says whether it is exactly `name`.
  mutating func readType(is name: StaticString) -> Bool
  /// Reads an undeclared member's value and appends the member to `extra`, refusing a name already
  /// kept there. `warns`: the validator warns about such a member (``sawExtraMember`` is set).
  mutating func readExtra(_ key: Key, into extra: inout [JSONObject.Member], warns: Bool) throws(DirectPathError)

  /// Reads an object of `shape` kept as raw JSON, checked as the validator checks the shape, and its
  /// member at index `captured` (when a scalar and present): the bytes reader scans the
  /// object (``BytesReader/readScanned(_:capturing:)``); the tree reader returns `nil`, and its caller
  /// reads the tree.
  mutating func readScanned(_ shape: ScannedShape, capturing captured: Int) throws(DirectPathError) -> (
    RawJSON, ScannedCapture?
  )?

  /// Set when a member the validator would warn about was kept (an undeclared member).
  var sawExtraMember: Bool { get set }
  /// The bound on each list of a handshake message (``ValidationOptions/maxHandshakeListItems``).
  var handshakeListLimit: Int { get }
  /// The duplicate-name comparisons made so far (the work the tests of linear work measure).
  var keyChecks: Int { get set }
}

extension ModelReader {
  /// The string itself (every reader but ``CheckingReader``).
  @inline(__always)
  package mutating func readText() throws(DirectPathError) -> String { try readString() }

  /// ``readExtra(_:into:warns:)`` for a message or shape member the catalog does not declare.
  @inline(__always)
  package mutating func readExtra(_ key: Key, into extra: inout [JSONObject.Member]) throws(DirectPathError) {
    try readExtra(key, into: &extra, warns: true)
  }

  /// Refuses the object unless a cross-member rule holds; `flags` as for ``FieldRule/holds(flags:)``,
  /// from the members decoded.
  @inline(__always)
  package func require(_ rule: FieldRule, flags: FieldRule.MemberFlags) throws(DirectPathError) {
    guard rule.holds(flags: flags) else { throw miss() }
  }
}
