/// The bytes reader: the generated model reads a frame straight from its bytes (``MessageDecoder``'s
/// direct path) through the parser's pull primitives (`JSONParser+Pull.swift`). A member it cannot
/// read outright is a miss (``DirectPathError``), and the frame goes to the tree path.
extension JSONParser: ModelReader {
  @inline(__always)
  mutating func beginObject(typeConsumed: Bool) throws(DirectPathError) -> Int {
    if typeConsumed { return 1 }  // `{` and the leading `type` member: one member read
    try pullObjectStart()
    return 0
  }

  @inline(__always)
  mutating func nextKey(_ cursor: inout Int) throws(DirectPathError) -> Key? { try pullKey(&cursor) }

  @inline(__always)
  func length(of key: Key) -> Int { key.count }

  @inline(__always)
  func miss(_ key: Key) -> DirectPathError { .miss(at: key.start) }

  @inline(__always)
  func miss() -> DirectPathError { .miss(at: pos) }

  @inline(__always)
  mutating func readNull() -> Bool { pullNull() }

  @inline(__always)
  mutating func readString() throws(DirectPathError) -> String { try pullString() }

  @inline(__always)
  mutating func readInt() throws(DirectPathError) -> Int { try pullInt() }

  @inline(__always)
  mutating func readDouble() throws(DirectPathError) -> Double { try pullDouble() }

  @inline(__always)
  mutating func readBool() throws(DirectPathError) -> Bool { try pullBool() }

  @inline(__always)
  mutating func readValue() throws(DirectPathError) -> JSONValue {
    do { return try parseValue() } catch { throw .read(error) }
  }

  @inline(__always)
  mutating func readArray<Element>(
    _ element: (inout JSONParser) throws(DirectPathError) -> Element
  ) throws(DirectPathError) -> [Element] {
    try pullArray(element)
  }

  /// A plain ASCII value (the usual case) is matched byte for byte against the raw values, making no
  /// `String`; a value with escapes or other characters is unescaped first and matched by exact
  /// Unicode scalars.
  @inline(__always)
  mutating func readEnum<E: JSONStringEnum>(_: E.Type) throws(DirectPathError) -> E {
    let start = pos
    if let value = plainStringValue() {
      for candidate in E.allCases where keyIs(value, candidate.rawValue) { return candidate }
      throw .miss(at: start)
    }
    guard let v = E.exactly(try pullString()) else { throw .miss(at: start) }
    return v
  }

  @inline(__always)
  mutating func readType(is name: StaticString) -> Bool { pullPlainString(is: name) }

  @inline(__always)
  mutating func readExtra(_ key: Key, into extra: inout [JSONObject.Member], warns: Bool) throws(DirectPathError) {
    try pullExtra(key, into: &extra, warns: warns)
  }

  var keyChecks: Int {
    get { stats.keyChecks }
    set { stats.keyChecks = newValue }
  }
}
