import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// RFC 6901 pointers over Unicode scalars: a member name that begins with a combining mark must not
/// merge with the `/` before it (found by Fuzz/fuzz-frame: `"\u{30B}ott"` gave a pointer whose first
/// `Character` was not `/`, and a `/` inside such a name went unescaped).
@Suite struct JSONPointerTests {
  static let names = ["ott", "\u{30B}ott", "a/\u{30B}b", "~/", "~1", "", "a~", "/", "x/y/z", "é/\u{301}"]

  @Test(arguments: names)
  func escapeAndSplitRoundTrip(name: String) throws {
    let pointer = JSONPointer.appending(JSONPointer.appending("", key: name), index: 2)
    #expect(pointer.unicodeScalars.first == "/")
    // Escaped: no raw "/" is left inside the token.
    let token = JSONPointer.escape(name)
    #expect(!token.unicodeScalars.contains("/"), "\(name.debugDescription) -> \(token.debugDescription)")
    let tokens = try #require(JSONPointer.tokens(pointer))
    #expect(tokens == [name, "2"])
  }

  @Test func escapeIsExactlyRFC6901() {
    #expect(JSONPointer.escape("a/\u{30B}b") == "a~1\u{30B}b")
    #expect(JSONPointer.escape("~/") == "~0~1")
    #expect(JSONPointer.tokens("") == [])
    #expect(JSONPointer.tokens("no-slash") == nil)
    #expect(JSONPointer.tokens("/\u{30B}ott") == ["\u{30B}ott"])
  }

  /// The fuzzer's input: the finding for the undeclared member names it exactly.
  @Test func findingForAMemberStartingWithACombiningMark() {
    let frame: [UInt8] =
      Array(#"{"type":"session_list","sesr{ions":null,""#.utf8) + [0xCC, 0x8B]
      + Array(#"ott":2}"#.utf8)
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame)
    #expect(!report.findings.isEmpty)
    for finding in report.findings {
      #expect(finding.pointer.isEmpty || finding.pointer.unicodeScalars.first == "/", "\(finding)")
    }
    #expect(report.findings.contains { $0.code == .unexpectedField && $0.pointer == "/\u{30B}ott" })
  }
}
