import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Hostile frames: each yields a specific finding, never a crash, with bounded work.
@Suite struct HostileInputTests {
  func codes(_ bytes: [UInt8], limits: JSONLimits = .default) -> [String] {
    Validator(options: ValidationOptions(version: .v0_2_0, limits: limits)).validate(bytes).findings.map(
      \.code.rawValue)
  }

  func codes(_ text: String) -> [String] { codes(Array(text.utf8)) }

  @Test func deepNestingIsRefusedWithoutStackOverflow() {
    let depth = 100_000
    let frame =
      [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
    #expect(codes(frame) == ["nesting_too_deep"])
    let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
    #expect(codes(objects) == ["nesting_too_deep"])
  }

  @Test func tenMegabyteLineIsHandled() {
    let text = String(repeating: "x", count: 10 << 20)
    let frame =
      "{\"type\":\"command_output\",\"command_session_id\":\"cmd-1\",\"stream\":\"stdout\",\"text\":\"\(text)\"}"
    #expect(codes(frame) == [])
    let small = JSONLimits(maxStringBytes: 1 << 20)
    #expect(codes(Array(frame.utf8), limits: small) == ["string_too_long"])
    #expect(codes(Array(frame.utf8), limits: JSONLimits(maxFrameBytes: 1 << 20)) == ["frame_too_large"])
  }

  @Test(
    arguments: [
      [0xC0, 0xAF],  // overlong '/'
      [0xE0, 0x80, 0xAF],  // overlong
      [0xF0, 0x80, 0x80, 0xAF],  // overlong
      [0xED, 0xA0, 0x80],  // UTF-16 surrogate D800 encoded in UTF-8
      [0xED, 0xBF, 0xBF],  // surrogate DFFF
      [0xE2, 0x82],  // truncated sequence
      [0x80],  // stray continuation byte
      [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
      [0xFF],
      [0xC3],  // two-byte lead, then the closing quote
      [0xC3, 0x28],  // two-byte lead, then ASCII
      [0xDF, 0xC0],  // two-byte lead, then a lead byte
      [0xC1, 0xBF],  // overlong two-byte form
      [0x5C, 0x6E, 0xC3],  // after an escape (`\n`): the escaped-string reader
      [0x5C, 0x6E, 0xDF, 0x7F],
    ] as [[UInt8]])
  func invalidUTF8IsRefused(_ bad: [UInt8]) {
    let frame = Array("{\"type\":\"ping\",\"x\":\"".utf8) + bad + Array("\"}".utf8)
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame)
    #expect(report.findings.map(\.code.rawValue) == ["invalid_utf8"])
    // The offset is the first byte that cannot be part of a valid sequence: within the bad bytes
    // (or the byte right after a truncated sequence).
    let offset = report.findings.first?.offset ?? -1
    #expect((20...(20 + bad.count)).contains(offset))
  }

  /// A multi-byte lead as the frame's last byte (no closing quote, no continuation): refused without
  /// reading past the buffer, by the tree reader and by the decoder's direct path alike.
  @Test func leadByteAtTheEndOfTheFrameIsRefused() {
    for lead: UInt8 in [0xC3, 0xDF, 0xE2, 0xF0] {
      for prefix in [
        "{\"type\":\"ping\",\"x\":\"", "{\"type\":\"ping\",\"x\":\"\\n", "{\"type\":\"ack\",\"message\":\"é",
      ] {
        let frame = Array(prefix.utf8) + [lead]
        #expect(!Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame).isValid)
        #expect(throws: DecodingFailure.self) {
          try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(frame)
        }
      }
    }
  }

  @Test func loneSurrogateEscapesAreRefused() {
    #expect(codes("{\"type\":\"ping\",\"x\":\"\\ud800\"}") == ["invalid_json"])
    #expect(codes("{\"type\":\"ping\",\"x\":\"\\udfff\\ud800\"}") == ["invalid_json"])
  }

  @Test func numbersAtTheEdges() {
    func limit(_ literal: String) -> [String] {
      codes("{\"type\":\"set_max_message_size\",\"size_kb\":\(literal)}")
    }
    #expect(limit("200") == [])
    #expect(limit("1.0") == ["wrong_type"])  // vcproto: an integer member takes integer literals only
    #expect(limit("18446744073709551616") == ["invalid_value"])  // 2^64
    #expect(limit("-0") == ["invalid_value"])  // zero is below the minimum 1
    #expect(limit("1e400") == ["wrong_type"])
    #expect(limit(String(repeating: "9", count: 65)) == ["number_too_long"])
    let cost =
      "{\"type\":\"response\",\"success\":true,\"cost\":{\"input_cost\":1e400,\"output_cost\":0,\"total_cost\":-0}}"
    #expect(codes(cost) == ["invalid_value"])
  }

  @Test func controlCharactersAndNUL() {
    #expect(codes("{\"type\":\"ping\",\"x\":\"a\u{0}b\"}") == ["invalid_json"])
    #expect(codes("{\"type\":\"ping\",\"x\":\"a\u{1F}b\"}") == ["invalid_json"])
    #expect(codes("{\"type\":\"ping\",\"x\":\"a\\u0000b\"}") == ["unexpected_field"])  // escaped NUL is fine
  }

  @Test func byteOrderMarkIsRefused() {
    #expect(codes([0xEF, 0xBB, 0xBF] + Array("{\"type\":\"ping\"}".utf8)) == ["invalid_json"])
  }

  @Test func duplicateKeysAreRejectedNotLastWins() {
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(
      "{\"type\":\"ping\",\"type\":\"connect\"}")
    #expect(report.findings.map(\.code.rawValue) == ["duplicate_key"])
    // A large object takes the set-based path.
    let members = (0..<40).map { "\"k\($0)\":0" }.joined(separator: ",")
    #expect(codes("{\"type\":\"ping\",\(members),\"k7\":1}") == ["duplicate_key"])
  }

  @Test func wideArraysAndObjectsAreBounded() {
    let limits = JSONLimits(maxArrayElements: 1000, maxObjectMembers: 100)
    let array = "[" + Array(repeating: "0", count: 1001).joined(separator: ",") + "]"
    #expect(codes(Array(array.utf8), limits: limits) == ["array_too_long"])
    let object = "{" + (0..<101).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
    #expect(codes(Array(object.utf8), limits: limits) == ["object_too_large"])
  }
}
