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
    // Canonically equivalent, different scalars: different names (STANDARDS.md section 2).
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
      #"{"offset":true}"#, #"{"type":"x","message":{"uuid":"nested"}}"#,
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
    }
    #expect(
      PositionHash.of("3f2a9c1e-0000-4000-8000-000000000001") != PositionHash.of("3f2a9c1e-0000-4000-8000-000000000002")
    )
  }
}
