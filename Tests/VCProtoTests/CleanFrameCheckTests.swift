import Testing

@testable import VCProtoCore
@testable import VCProtoJSON

/// `MessageDecoder.cleanFrame` (the generated decoders over `CheckingReader`, which makes no String
/// of a member no rule looks at) against `decodeIfClean` (the same decoders over `BytesReader`): the
/// same verdict, type and direction on every frame, so `vcproto validate` settles exactly the frames
/// it settled before.
@Suite struct CleanFrameCheckTests {
  /// One frame both ways: both `nil`, or the same type and direction.
  static func expectSameVerdict(_ bytes: [UInt8], _ options: ValidationOptions, _ label: String) {
    let decoder = MessageDecoder(options: options)
    let expected = decoder.decodeIfClean(bytes).map { message -> (String, MessageDirection) in
      if case .client = message { return (message.type, .clientToServer) }
      return (message.type, .serverToClient)
    }
    let checked = decoder.cleanFrame(bytes)
    #expect(checked?.type == expected?.0, "\(label)")
    #expect(checked?.direction == expected?.1, "\(label)")
  }

  @Test func everyVectorAndItsVariantsGetTheSameVerdict() throws {
    var (frames, clean) = (0, 0)
    for v in try MessageVectorTests.vectors() {
      let version = try #require(ProtocolVersion(rawValue: v.protocol_version))
      for direction in [nil, MessageDirection.clientToServer, .serverToClient] {
        let options = ValidationOptions(direction: direction, version: version)
        Self.expectSameVerdict(Array(v.frame.utf8), options, v.id)
        if MessageDecoder(options: options).cleanFrame(Array(v.frame.utf8)) != nil { clean += 1 }
        for (name, variant) in DirectDecodeTests.variants(of: v.frame) {
          Self.expectSameVerdict(Array(variant.utf8), options, "\(v.id) (\(name))")
          frames += 1
        }
      }
    }
    #expect(frames > 2000)
    #expect(clean >= 80 * ProtocolVersion.allCases.count)
  }

  /// A member no rule looks at (a 0.5.0 history message's `text`) is still checked as a string: each
  /// break of it alone makes the frame unclean.
  @Test func aTextMemberIsCheckedThoughNotKept() {
    func history(_ text: [UInt8]) -> [UInt8] {
      Array(#"{"type":"session_history","session_id":"s","messages":[{"uuid":"u","role":"user","text":"#.utf8) + text
        + Array(#","timestamp":null,"provider":"claude","session_id":"s","offset":12}],"next_offset":13,"#.utf8)
        + Array(#""end_of_file":true,"file_signature":"812:u"}"#.utf8)
    }
    let options = ValidationOptions(version: .v0_5_0)
    let decoder = MessageDecoder(options: options)
    let good = history(Array(#""h\u00e9llo \"w\" \ud83d\ude00 é""#.utf8))
    #expect(decoder.cleanFrame(good)?.type == "session_history")
    let broken: [(String, [UInt8])] = [
      ("bad escape", Array(#""a\qb""#.utf8)),
      ("lone surrogate", Array(#""a\ud800b""#.utf8)),
      ("control character", Array("\"a\u{01}b\"".utf8)),
      ("invalid UTF-8", [0x22, 0x61, 0xFF, 0x62, 0x22]),
      ("overlong UTF-8", [0x22, 0xC0, 0xAF, 0x22]),
      ("unterminated", Array(#""abc"#.utf8)),
      ("not a string", Array("42".utf8)),
      ("null", Array("null".utf8)),
    ]
    for (label, text) in broken {
      #expect(decoder.cleanFrame(history(text)) == nil, "\(label)")
      Self.expectSameVerdict(history(text), options, label)
    }
    // The bound on a string's length holds for a text member too.
    var limited = options
    limited.limits.maxStringBytes = 30
    func text(_ n: Int) -> [UInt8] { Array(("\"" + String(repeating: "a", count: n) + "\"").utf8) }
    #expect(MessageDecoder(options: limited).cleanFrame(history(text(30))) != nil)
    #expect(MessageDecoder(options: limited).cleanFrame(history(text(31))) == nil)
    Self.expectSameVerdict(history(text(31)), limited, "too long")
  }
}
