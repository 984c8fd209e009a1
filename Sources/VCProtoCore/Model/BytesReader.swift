import VCProtoJSON

/// The bytes reader: the generated model reads a frame straight from its bytes (``MessageDecoder``'s
/// direct path) through VCProtoJSON's pull primitives (`JSONParser+Pull.swift`). A member it cannot
/// read outright is a miss (``DirectPathError``), and the frame goes to the tree path. The parser
/// knows only JSON; what the protocol adds (the handshake lists' bound, whether an undeclared member
/// was kept) is held here.
package struct BytesReader: ModelReader {
  package typealias Key = JSONParser.Key

  /// The cursor over the frame's bytes.
  package var parser: JSONParser
  package var sawExtraMember = false
  /// The bound on each list of a handshake message (``ValidationOptions/maxHandshakeListItems``).
  package var handshakeListLimit = ValidationOptions.defaultMaxHandshakeListItems
  /// The array whose storage the parser's buffer is, while ``MessageDecoder``'s direct path reads
  /// it: a scanned object's ``RawJSON`` is then a slice of the frame (a retain) instead of a copy of
  /// its bytes (an allocation and a copy each). Borrowed, not retained, so that a frame with nothing
  /// kept as raw JSON pays nothing for it; used only while its storage is the parser's buffer
  /// (``frameSlice(_:)``).
  package var frame: UnsafePointer<[UInt8]>? = nil

  /// A reader of the frame in `buffer`, under `limits`, with the catalog's member names known.
  package init(buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
    self.init(buffer: buffer, limits: limits, knownKeys: .protocolNames)
  }

  /// A reader of the frame in `buffer`, under `limits`, with the member names of `knownKeys` known
  /// (``MessageDecoder`` passes the catalog's, which it holds, so that a frame does not reach the
  /// lazily initialised global).
  package init(buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits, knownKeys: KnownKeys) {
    parser = JSONParser(buffer: buffer, limits: limits, knownKeys: knownKeys)
  }

  /// The bytes at `range` of the parser's buffer as part of ``frame``, when the buffer is its storage.
  @inline(__always)
  func frameSlice(_ range: Range<Int>) -> ArraySlice<UInt8>? {
    guard let frame, frame.pointee.count == parser.bytes.count,
      frame.pointee.withUnsafeBufferPointer({ $0.baseAddress }) == parser.bytes.baseAddress
    else { return nil }
    return frame.pointee[range]
  }

  @inline(__always)
  package mutating func beginObject(typeConsumed: Bool) throws(DirectPathError) -> Int {
    if typeConsumed { return 1 }  // `{` and the leading `type` member: one member read
    try parser.pullObjectStart()
    return 0
  }

  @inline(__always)
  package mutating func nextKey(_ cursor: inout Int) throws(DirectPathError) -> Key? { try parser.pullKey(&cursor) }

  @inline(__always)
  package func length(of key: Key) -> Int { key.count }

  @inline(__always)
  package func miss(_ key: Key) -> DirectPathError { .miss(at: key.start) }

  @inline(__always)
  package func miss() -> DirectPathError { .miss(at: parser.pos) }

  @inline(__always)
  package mutating func readNull() -> Bool { parser.pullNull() }

  @inline(__always)
  package mutating func readString() throws(DirectPathError) -> String { try parser.pullString() }

  @inline(__always)
  package mutating func readInt() throws(DirectPathError) -> Int { try parser.pullInt() }

  @inline(__always)
  package mutating func readDouble() throws(DirectPathError) -> Double { try parser.pullDouble() }

  @inline(__always)
  package mutating func readBool() throws(DirectPathError) -> Bool { try parser.pullBool() }

  @inline(__always)
  package mutating func readValue() throws(DirectPathError) -> JSONValue {
    do { return try parser.parseValue() } catch { throw .read(error) }
  }

  @inline(__always)
  package mutating func readArray<Element>(
    _ element: (inout BytesReader) throws(DirectPathError) -> Element
  ) throws(DirectPathError) -> [Element] {
    var out: [Element] = []
    guard try parser.pullArrayStart() else { return out }
    repeat {
      try parser.pullArrayElement(count: out.count)
      out.append(try element(&self))
    } while try parser.pullArrayNext()
    return out
  }

  /// A plain ASCII value (the usual case) is matched byte for byte against the raw values, making no
  /// `String`; a value with escapes or other characters is unescaped first and matched by exact
  /// Unicode scalars.
  @inline(__always)
  package mutating func readEnum<E: JSONStringEnum>(_: E.Type) throws(DirectPathError) -> E {
    let start = parser.pos
    if let value = parser.plainStringValue() {
      for candidate in E.allCases where parser.keyIs(value, candidate.rawValue) { return candidate }
      throw .miss(at: start)
    }
    guard let v = E.exactly(try parser.pullString()) else { throw .miss(at: start) }
    return v
  }

  @inline(__always)
  package mutating func readType(is name: StaticString) -> Bool { parser.pullPlainString(is: name) }

  @inline(__always)
  package mutating func readExtra(_ key: Key, into extra: inout [JSONObject.Member], warns: Bool)
    throws(DirectPathError)
  {
    try parser.pullExtra(key, into: &extra)
    if warns { sawExtraMember = true }
  }

  @inline(__always)
  package func keyIs(_ key: Key, _ name: StaticString) -> Bool { parser.keyIs(key, name) }

  @inline(__always)
  package func keyIs(_ key: Key, _ name: UnsafeBufferPointer<UInt8>) -> Bool { parser.keyIs(key, name) }

  @inline(__always)
  package func keyString(_ key: Key) -> String { parser.keyString(key) }

  package var keyChecks: Int {
    get { parser.stats.keyChecks }
    set { parser.stats.keyChecks = newValue }
  }
}
