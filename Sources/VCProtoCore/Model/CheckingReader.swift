import VCProtoJSON

/// The bytes reader for a verdict only: the generated decoders run over it exactly as over
/// ``BytesReader`` (every member read, every rule checked, the same misses), except that a string
/// no rule looks at (``ModelReader/readText()``) is checked where it lies and never made into a
/// `String`. The message it yields holds empty strings in those members, so it never leaves
/// ``MessageDecoder/cleanFrame(_:)``, which keeps only the frame's type and direction: what
/// `vcproto validate` needs of a clean frame.
package struct CheckingReader: FrameBytesReader {
  package typealias Key = JSONParser.Key

  /// The reader every other read goes to.
  var base: BytesReader

  /// A reader of the frame in `buffer`, under `limits`, with the member names of `knownKeys` known.
  package init(buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits, knownKeys: KnownKeys) {
    base = BytesReader(buffer: buffer, limits: limits, knownKeys: knownKeys)
  }

  /// The cursor over the frame's bytes.
  package var parser: JSONParser {
    @inline(__always) _read { yield base.parser }
    @inline(__always) _modify { yield &base.parser }
  }

  package var sawExtraMember: Bool {
    @inline(__always) get { base.sawExtraMember }
    @inline(__always) set { base.sawExtraMember = newValue }
  }

  package var handshakeListLimit: Int {
    @inline(__always) get { base.handshakeListLimit }
    @inline(__always) set { base.handshakeListLimit = newValue }
  }

  package var frame: UnsafePointer<[UInt8]>? {
    @inline(__always) get { base.frame }
    @inline(__always) set { base.frame = newValue }
  }

  package var keyChecks: Int {
    @inline(__always) get { base.keyChecks }
    @inline(__always) set { base.keyChecks = newValue }
  }

  /// Checks the string as ``readString()`` would read it (UTF-8, escapes, the length bound) and
  /// steps over it; returns "".
  @inline(__always)
  package mutating func readText() throws(DirectPathError) -> String {
    guard base.parser.pos < base.parser.bytes.count, base.parser.bytes[base.parser.pos] == UInt8(ascii: "\"") else {
      throw .miss(at: base.parser.pos)
    }
    do { _ = try base.parser.scanString() } catch { throw .read(error) }
    return ""
  }

  @inline(__always)
  package mutating func beginObject(typeConsumed: Bool) throws(DirectPathError) -> Int {
    try base.beginObject(typeConsumed: typeConsumed)
  }

  @inline(__always)
  package mutating func nextKey(_ cursor: inout Int) throws(DirectPathError) -> Key? { try base.nextKey(&cursor) }

  @inline(__always)
  package func length(of key: Key) -> Int { base.length(of: key) }

  @inline(__always)
  package func keyIs(_ key: Key, _ name: StaticString) -> Bool { base.keyIs(key, name) }

  @inline(__always)
  package func keyIs(_ key: Key, _ name: UnsafeBufferPointer<UInt8>) -> Bool { base.keyIs(key, name) }

  @inline(__always)
  package func keyString(_ key: Key) -> String { base.keyString(key) }

  @inline(__always)
  package func miss(_ key: Key) -> DirectPathError { base.miss(key) }

  @inline(__always)
  package func miss() -> DirectPathError { base.miss() }

  @inline(__always)
  package mutating func readNull() -> Bool { base.readNull() }

  @inline(__always)
  package mutating func readString() throws(DirectPathError) -> String { try base.readString() }

  @inline(__always)
  package mutating func readInt() throws(DirectPathError) -> Int { try base.readInt() }

  @inline(__always)
  package mutating func readDouble() throws(DirectPathError) -> Double { try base.readDouble() }

  @inline(__always)
  package mutating func readBool() throws(DirectPathError) -> Bool { try base.readBool() }

  @inline(__always)
  package mutating func readValue() throws(DirectPathError) -> JSONValue { try base.readValue() }

  /// As ``BytesReader/readArray(_:)``, each element read by this reader.
  @inline(__always)
  package mutating func readArray<Element>(
    _ element: (inout CheckingReader) throws(DirectPathError) -> Element
  ) throws(DirectPathError) -> [Element] {
    var out: [Element] = []
    guard try base.parser.pullArrayStart() else { return out }
    repeat {
      try base.parser.pullArrayElement(count: out.count)
      out.append(try element(&self))
    } while try base.parser.pullArrayNext()
    return out
  }

  @inline(__always)
  package mutating func readEnum<E: JSONStringEnum>(_ type: E.Type) throws(DirectPathError) -> E {
    try base.readEnum(type)
  }

  @inline(__always)
  package mutating func readType(is name: StaticString) -> Bool { base.readType(is: name) }

  @inline(__always)
  package mutating func readExtra(_ key: Key, into extra: inout [JSONObject.Member], warns: Bool)
    throws(DirectPathError)
  {
    try base.readExtra(key, into: &extra, warns: warns)
  }

  @inline(__always)
  package mutating func readScanned(_ shape: ScannedShape, capturing captured: Int) throws(DirectPathError) -> (
    RawJSON, ScannedCapture?
  )? {
    try base.readScanned(shape, capturing: captured)
  }
}
