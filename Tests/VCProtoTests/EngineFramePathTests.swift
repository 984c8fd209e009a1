import Testing

@testable import VCProto

/// The readers on the engines' per-frame path against their plain definitions: byte comparison of
/// member names, the frame types recognised once per frame, a message's position read in place, and
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

  /// `position(in:)` reads what the subscript reads: the uuid's hash, or the integer `seq`/`offset`.
  @Test func positionInPlaceAgreesWithTheSubscript() throws {
    let reader = JSONReader(limits: .default)
    let messages = [
      #"{"type":"user","uuid":"3f2a9c1e-0000-4000-8000-000000000001"}"#,
      #"{"uuid":"short"}"#, #"{"uuid":7}"#, #"{"uuid":null}"#, #"{"role":"user"}"#, #"{}"#,
      #"{"seq":42,"uuid":"a"}"#, #"{"seq":1.5}"#, #"{"seq":1e3}"#, #"{"seq":-3}"#, #"{"seq":"4"}"#,
      #"{"seq":99999999999999999999}"#, #"{"offset":0}"#, #"{"offset":123456789,"session_id":"s"}"#,
      #"{"offset":true}"#, #"{"type":"x","message":{"uuid":"nested"}}"#, #"{"offset":-0}"#,
      #"{"offset":9223372036854775807}"#, #"{"offset":9223372036854775808}"#, #"{"seq":-9223372036854775808}"#,
      #"{"seq":-9223372036854775809}"#, #"{"offset":1E3}"#, #"{"offset":-1.5e2}"#, #"{"offset":0.0}"#,
    ]
    for text in messages {
      guard case .object(let message) = try reader.parse(Array(text.utf8)) else {
        Issue.record("not an object: \(text)")
        continue
      }
      let uuid = message["uuid"]?.stringValue.map(PositionHash.of)
      #expect(message.position(in: .messageId) == uuid, "\(text)")
      #expect(message.position(in: .seq) == message["seq"]?.intValue, "\(text)")
      #expect(message.position(in: .offset) == message["offset"]?.intValue, "\(text)")
    }
    let seq = try #require(try reader.parse(Array(#"{"seq":42}"#.utf8)).objectValue)
    #expect(seq.position(in: .seq) == 42)
    let nested = try #require(try reader.parse(Array(#"{"message":{"uuid":"u"}}"#.utf8)).objectValue)
    #expect(nested.position(in: .messageId) == nil)
  }

  /// The engine's one-pass reader of a 0.4.0/0.5.0 message decides as the subscript does: the integer
  /// `seq`/`offset`, and a `session_id` naming another session drops the message. When it cannot
  /// decide from bytes (another session's id, which may be a canonically equivalent string), it says so.
  @Test func inPlacePositionAgreesWithTheSubscript() throws {
    let reader = JSONReader(limits: .default)
    let messages = [
      #"{"offset":7,"session_id":"s"}"#, #"{"session_id":"s","offset":7}"#, #"{"offset":7,"session_id":"t"}"#,
      #"{"offset":7}"#, #"{"offset":"7","session_id":"s"}"#, #"{"session_id":7,"offset":7}"#,
      #"{"offset":7.5,"session_id":"s"}"#, #"{"seq":3,"offset":8,"session_id":"s"}"#, #"{"session_id":"s"}"#,
      #"{"offset":-12,"session_ix":"t","session_id":"s"}"#, #"{"offset":1e2,"session_id":"s"}"#,
      #"{"offset":9223372036854775808,"session_id":"s"}"#, #"{"offsets":1,"offset":2,"session_id":"s"}"#,
      #"{"offset":5,"session_id":"é"}"#, #"{"offset":5,"session_id":"é"}"#,
    ]
    for session in ["s", "\u{e9}"] {
      for name in ["seq", "offset"] {
        for text in messages {
          let message = try #require(try reader.parse(Array(text.utf8)).objectValue, "\(text)")
          let plain = ClientEngine.plainPosition(of: .object(message), named: name, session: session)
          switch message.inPlacePosition(named: name, session: session) {
          case .position(let position):
            #expect(position == plain, "\(name) in \(text)")
            #expect(message["session_id"]?.stringValue.map { Array($0.utf8) == Array(session.utf8) } ?? true)
          case .absent: #expect(plain == nil, "\(name) in \(text)")
          case .undecided:
            // Only another session's bytes (or bytes that are not contiguous) leave it undecided.
            #expect(message[name]?.intValue != nil, "\(name) in \(text)")
          }
        }
      }
    }
    // Every order of a message's members (the reader scans from the last one): the same answer.
    for owner in ["s", "t"] {
      let members: [JSONObject.Member] = [
        .init(key: "uuid", value: "u-1"), .init(key: "role", value: "user"), .init(key: "text", value: "hi"),
        .init(key: "timestamp", value: .null), .init(key: "provider", value: "claude"),
        .init(key: "session_id", value: .string(owner)), .init(key: "offset", value: 1234),
      ]
      var orders = 0
      Self.forEachPermutation(of: members) { order in
        orders += 1
        let message = JSONObject(order)
        let plain = ClientEngine.plainPosition(of: .object(message), named: "offset", session: "s")
        switch message.inPlacePosition(named: "offset", session: "s") {
        case .position(let position): #expect(owner == "s" && position == plain && plain == 1234, "\(order)")
        case .absent: Issue.record("absent in \(order)")
        case .undecided: #expect(owner == "t" && plain == nil, "\(order)")
        }
      }
      #expect(orders == 5040)
    }
    // "é" precomposed and decomposed are the same session: kept by the plain reading.
    let decomposed = try #require(try reader.parse(Array(#"{"offset":5,"session_id":"e\u0301"}"#.utf8)).objectValue)
    #expect(ClientEngine.plainPosition(of: .object(decomposed), named: "offset", session: "\u{e9}") == 5)
    #expect(ClientEngine.plainPosition(of: .object(decomposed), named: "offset", session: "t") == nil)
  }

  /// Calls `body` with every ordering of `items` (Heap's algorithm).
  static func forEachPermutation<T>(of items: [T], _ body: ([T]) -> Void) {
    var items = items
    var counters = [Int](repeating: 0, count: items.count)
    body(items)
    var i = 0
    while i < items.count {
      if counters[i] < i {
        items.swapAt(i % 2 == 0 ? 0 : counters[i], i)
        body(items)
        counters[i] += 1
        i = 0
      } else {
        counters[i] = 0
        i += 1
      }
    }
  }

  /// ``HistoryFrame`` finds, in one pass, the member the subscript finds for every name the engine
  /// reads: the first of repeated names, none for a canonically equivalent spelling or a near miss.
  @Test func historyFrameFindsWhatTheSubscriptFinds() {
    let names = [
      "session_id", "messages", "file_signature", "file_replaced", "next_offset", "end_of_file",
      "newest_message_id", "is_complete", "gap", "last_seq", "next_seq",
    ]
    let others = ["type", "session_i", "Session_id", "next_offsets", "gaps", "messages\u{301}", "end_of_fil\u{e9}"]
    var frames: [JSONObject] = [JSONObject()]
    for (offset, name) in names.enumerated() {
      var members = others.enumerated().map { JSONObject.Member(key: $1, value: JSONValue(integerLiteral: 100 + $0)) }
      members.insert(JSONObject.Member(key: name, value: JSONValue(integerLiteral: offset)), at: offset % members.count)
      // A second member of the same name (a frame built by hand; the parser refuses one): the first wins.
      members.append(JSONObject.Member(key: name, value: "second"))
      frames.append(JSONObject(members))
      frames.append(JSONObject(members.filter { $0.key != name }))
    }
    frames.append(
      JSONObject(names.enumerated().map { JSONObject.Member(key: $1, value: JSONValue(integerLiteral: $0)) }))
    // Every name held in a buffer, not as a small string (as a key built by a host may be): no
    // representation matches, the bytes do.
    frames.append(
      JSONObject(
        names.enumerated().map { offset, name in
          var buffered = String()
          buffered.reserveCapacity(64)
          buffered.append(name)
          return JSONObject.Member(key: buffered, value: JSONValue(integerLiteral: offset))
        }))
    for frame in frames {
      let fields = HistoryFrame(frame)
      let found = [
        fields.sessionId, fields.messages, fields.fileSignature, fields.fileReplaced, fields.nextOffset,
        fields.endOfFile, fields.newestMessageId, fields.isComplete, fields.gap, fields.lastSeq, fields.nextSeq,
      ]
      for (name, index) in zip(names, found) {
        #expect(fields[index] == frame[name], "\(name) in \(frame.keys)")
        #expect((index == nil) == (frame[name] == nil), "\(name) in \(frame.keys)")
      }
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
  }
}
