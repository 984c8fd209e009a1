import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The readers on the engines' per-frame path against their plain definitions: byte comparison of
/// member names, the frame types recognised once per frame, a 0.2.0 record's position read in place, and
/// the uuid hash.
@Suite struct EngineFramePathTests {
  /// Strings around the boundaries of the comparison (8- and 4-byte steps) and of Swift's small
  /// strings (15 bytes), with non-ASCII text.
  static let samples: [String] = {
    var all = [""]
    for length in 1...40 { all.append(String((0..<length).map { Character(UnicodeScalar(97 + $0 % 26)!) })) }
    all += ["é", "e\u{301}", "ké", "ke\u{301}", "uuid", "type", "session_id", "newest_message_id", "日本語のキー"]
    return all
  }()

  @Test func byteComparisonAgreesWithUTF8Equality() {
    for a in Self.samples {
      for b in Self.samples {
        #expect(a.hasSameScalars(as: b) == (Array(a.utf8) == Array(b.utf8)), "\(a) vs \(b)")
      }
      // The same length, one byte different at each position in turn.
      let bytes = Array(a.utf8)
      for i in bytes.indices where bytes[i] < 0x80 {
        var changed = bytes
        changed[i] = bytes[i] == 0x41 ? 0x42 : 0x41
        let other = String(decoding: changed, as: UTF8.self)
        #expect(!a.hasSameScalars(as: other), "\(a) vs \(other)")
      }
    }
    // Canonically equivalent, different scalars: different names (STANDARDS.md#exact-member-names).
    #expect("é" == "e\u{301}")
    #expect(!"é".hasSameScalars(as: "e\u{301}"))
  }

  @Test func frameTypesAreRecognisedExactly() {
    let expected: [String: FrameType] = [
      "ping": .ping, "pong": .pong, "prompt": .prompt, "connect": .connect, "draining": .draining,
      "heartbeat": .heartbeat, "subscribe": .subscribe, "auth_error": .authError, "disconnect": .disconnect,
      "message_ack": .messageAck, "unsubscribe": .unsubscribe, "session_ready": .sessionReady,
      "turn_complete": .turnComplete, "session_history": .sessionHistory, "session_updated": .sessionUpdated,
      "session_created": .sessionCreated,
    ]
    for (name, type) in expected {
      #expect(FrameType(name) == type, "\(name)")
      // The same name held in a buffer (not a small string): recognised by its bytes.
      var buffered = String()
      buffered.reserveCapacity(64)
      buffered.append(name)
      #expect(!String.sameRepresentation(buffered, name))
      #expect(FrameType(buffered) == type, "\(name) in a buffer")
      // Any other spelling is another type: a prefix, an extension, a case change, one letter changed.
      #expect(FrameType(String(name.dropLast())) == .other)
      #expect(FrameType(name + "s") == .other)
      #expect(FrameType(name.uppercased()) == .other)
      #expect(FrameType("x" + name.dropFirst()) == .other)
    }
    for name in ["", "error", "hello", "connected", "session_list", "ack", "pıng", "command_output"] {
      #expect(FrameType(name) == .other, "\(name)")
    }
  }

  /// `uuidPosition` (the dedup position of a 0.2.0 record) reads what the subscript reads: the hash of
  /// a string `uuid`, nothing otherwise.
  @Test func uuidPositionAgreesWithTheSubscript() throws {
    let reader = JSONReader(limits: .default)
    let messages = [
      #"{"type":"user","uuid":"3f2a9c1e-0000-4000-8000-000000000001"}"#,
      #"{"uuid":"short"}"#, #"{"uuid":7}"#, #"{"uuid":null}"#, #"{"role":"user"}"#, #"{}"#,
      #"{"seq":42,"uuid":"a"}"#, #"{"type":"x","message":{"uuid":"nested"}}"#,
    ]
    for text in messages {
      let message = try #require(try reader.parse(Array(text.utf8)).objectValue, "\(text)")
      #expect(
        ClaudeRecord(raw: message).uuidPosition == message["uuid"]?.stringValue.map(PositionHash.of), "\(text)")
    }
    let nested = try #require(try reader.parse(Array(#"{"message":{"uuid":"u"}}"#.utf8)).objectValue)
    #expect(ClaudeRecord(raw: nested).uuidPosition == nil)
  }

  /// A decoded record keeps its `uuid` where the scan found it in the record's text (no String made
  /// while decoding) when it has no escapes; with escapes, as the parsed String. Either way `uuid` and
  /// `uuidPosition` are those of the string the record's JSON holds.
  @Test func decodedRecordsKeepTheirUUIDInPlace() throws {
    let records = [
      #"{"type":"user","uuid":"3f2a9c1e-0000-4000-8000-000000000001"}"#,
      #"{"uuid":"r\u00e9sum\u00e9-\"q\"","type":"user"}"#, #"{"type":"user","uuid":"é€𝄞"}"#,
      #"{"type":"user","uuid":""}"#, #"{"type":"user"}"#, #"{"type":"user","message":{"role":"user"},"uuid":"z"}"#,
    ]
    let frame =
      #"{"type":"session_history","session_id":"s","messages":["# + records.joined(separator: ",")
      + #"],"total_count":6,"oldest_message_id":null,"newest_message_id":null,"is_complete":true}"#
    let message = try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(frame)
    guard case .server(.sessionHistory(.v0_2_0(let history))) = message else {
      Issue.record("not a 0.2.0 session_history")
      return
    }
    #expect(history.messages.count == records.count)
    for (record, text) in zip(history.messages, records) {
      let expected = try JSONReader().parse(text).objectValue?["uuid"]?.stringValue
      #expect(record.uuid == expected, "\(text)")
      #expect(record.uuidPosition == expected.map(PositionHash.of), "\(text)")
      switch record.uuidText {
      case .text: #expect(expected != nil && !text.contains("\\"), "\(text)")
      case .string: #expect(text.contains("\\"), "kept as a String only with escapes: \(text)")
      case .absent: #expect(expected == nil, "\(text)")
      }
    }
  }

  /// A captured plain string with a closed set of allowed values is still checked against the set: the
  /// scan accepts exactly what it accepts when the member is not captured.
  @Test func capturedMemberKeepsItsClosedSet() throws {
    let spec = ShapeSpec(
      "Probe", doc: "", extraMembers: .allow,
      fields: [FieldSpec("uuid", .text), FieldSpec("role", .text, allowedValues: ["user", "assistant"])])
    let shape = ScannedShape(spec)
    func scanned(_ json: String, capturing captured: Int) -> ScannedCapture?? {
      Array(json.utf8).withUnsafeBufferPointer { buffer in
        var reader = BytesReader(buffer: buffer, limits: .default)
        return try? reader.readScanned(shape, capturing: captured)?.1
      }
    }
    for role in [#""bogus""#, #""bogu\u0073""#, #""""#, "7"] {
      let json = #"{"uuid":"u","role":"# + role + "}"
      for captured in [-1, 0, 1] {
        #expect(scanned(json, capturing: captured) == nil, "\(json), capturing \(captured)")
      }
    }
    for role in [#""user""#, #""assistan\u0074""#] {
      let json = #"{"uuid":"u","role":"# + role + "}"
      for captured in [-1, 0] { #expect(scanned(json, capturing: captured) != nil, "\(json), capturing \(captured)") }
      guard case .value(.string(let value))?? = scanned(json, capturing: 1) else {
        Issue.record("\(json): the captured role is not read as its value")
        continue
      }
      #expect(["user", "assistant"].contains(value), "\(json)")
    }
  }

  /// The in-place integer reader reads a literal as `JSONNumber.int64Value` (`Int64(_:)`) does.
  @Test func integerLiteralAgreesWithInt64() {
    let literals = [
      "0", "-0", "+5", "", "-", "+", "12a", "1.0", "1e3", "007", "9223372036854775807", "9223372036854775808",
      "-9223372036854775808", "-9223372036854775809", "99999999999999999999", "--1", "+-1", " 1", "١٢",
      // Both sides of the unchecked loop's bound (18 digits) and of Int64's.
      "999999999999999999", "-999999999999999999", "+999999999999999999", "1000000000000000000",
      "-1000000000000000000", "0000000000000000001", "000000000000000000009223372036854775807",
      "9223372036854775806", "-9223372036854775807", "12345678901234567x", "-12345678901234567x",
    ]
    for literal in literals {
      let read = Array(literal.utf8).withUnsafeBufferPointer { IntegerLiteral.value(of: $0) }
      #expect(read == Int64(literal), "\(literal)")
    }
  }

  /// `IntegerLiteral.text(of:)` writes what `String(_:)` writes, around every power of ten and at the
  /// ends of `Int64`; `JSONNumber`'s integer initialisers use it.
  @Test func integerTextAgreesWithString() {
    var values: [Int64] = [0, 1, -1, 9, -9, .max, .min, .max - 1, .min + 1]
    var power: Int64 = 1
    for _ in 0..<18 {
      power *= 10
      values += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
    }
    var random = SystemRandomNumberGenerator()
    for _ in 0..<2000 { values.append(Int64(truncatingIfNeeded: random.next() as UInt64) >> Int64.random(in: 0...63)) }
    for value in values {
      #expect(IntegerLiteral.text(of: value) == String(value), "\(value)")
      #expect(JSONNumber(value).literal == String(value))
      #expect(JSONNumber(value).int64Value == value)
    }
    #expect(JSONNumber(Int(-42)).literal == "-42")
    #expect(JSONNumber(12.0).literal == "12")
  }

  /// `JSONNumber.int64Value` read in place agrees with its definition (an integer literal, by
  /// `Int64(_:)`) on every kind of valid literal.
  @Test func int64ValueAgreesWithItsDefinition() throws {
    let literals = [
      "0", "-0", "7", "-7", "1.0", "-1.5", "1e3", "1E3", "1e-3", "-0.0", "9223372036854775807",
      "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
      "999999999999999999", "1000000000000000000", "0.1e1",
    ]
    for literal in literals {
      guard case .number(let number) = try JSONReader(limits: .default).parse(Array(literal.utf8)) else {
        Issue.record("\(literal) is not a number")
        continue
      }
      let defined = number.isIntegerLiteral ? Int64(literal) : nil
      #expect(number.int64Value == defined, "\(literal)")
    }
  }

  /// The byte split of a `file_signature` agrees with the string's (or defers to it).
  @Test func signatureByteSplitAgreesWithTheString() {
    let samples = [
      "48213:1f0e2d3c", "x:1f0e2d3c", "no colon", "", ":", "-1:u", "10:", "10:u:v", "+5:u", "-0:u", "007:u",
      "12:\u{301}x", "12:é", "١٢:u", "1\u{301}:u", "99999999999999999999:u", "5::",
    ]
    for signature in samples {
      let string = FileSignature.split(signature).map { ($0, $1.utf8.count) }
      switch Array(signature.utf8).withUnsafeBufferPointer({ FileSignature.split($0) }) {
      case .parsed(let length, let rest):
        #expect(string?.0 == length && string?.1 == rest, "\(signature)")
      case .whole: #expect(string == nil, "\(signature)")
      case .undecided: #expect(signature.unicodeScalars.contains { !$0.isASCII }, "\(signature)")
      }
    }
  }

  /// The hash reads the last bytes four at a time; the value is the one of reading them one by one.
  @Test func uuidHashMatchesItsBytewiseDefinition() {
    func bytewise(_ text: String) -> UInt64 {
      let bytes = Array(text.utf8)
      let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
      var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
      var offset = 0
      while offset + 8 <= bytes.count {
        var word: UInt64 = 0
        for k in 0..<8 { word |= UInt64(bytes[offset + k]) << (8 * UInt64(k)) }
        h = (h ^ word) &* multiplier
        h ^= h >> 29
        offset += 8
      }
      var tail: UInt64 = 0
      for k in 0..<(bytes.count - offset) { tail |= UInt64(bytes[offset + k]) << (8 * UInt64(k)) }
      h = (h ^ tail) &* multiplier
      h ^= h >> 32
      return h
    }
    for text in Self.samples {
      #expect(PositionHash.of(text) == Int(truncatingIfNeeded: bytewise(text)), "\(text)")
      // The reading for strings whose bytes are not contiguous gives the same value.
      #expect(PositionHash.hash(streaming: text.utf8) == bytewise(text), "\(text)")
    }
    #expect(
      PositionHash.of("3f2a9c1e-0000-4000-8000-000000000001") != PositionHash.of("3f2a9c1e-0000-4000-8000-000000000002")
    )
    // 36 bytes, the length hashed in straight code: every byte position changed in turn, and texts
    // with multibyte scalars.
    var uuids = ["3f2a9c1e-0000-4000-8000-000000000001", String(repeating: "\u{e9}", count: 18)]
    uuids.append(String(repeating: "\u{65e5}", count: 12))
    for position in 0..<36 {
      var bytes = Array(uuids[0].utf8)
      bytes[position] = UInt8(ascii: "Z")
      uuids.append(String(decoding: bytes, as: UTF8.self))
    }
    for text in uuids {
      #expect(text.utf8.count == 36)
      #expect(PositionHash.of(text) == Int(truncatingIfNeeded: bytewise(text)), "\(text)")
      #expect(Array(text.utf8).withUnsafeBytes { PositionHash.hash36($0) } == bytewise(text), "\(text)")
      #expect(Array(text.utf8).withUnsafeBytes { PositionHash.hash($0) } == bytewise(text), "\(text)")
    }
  }
}
