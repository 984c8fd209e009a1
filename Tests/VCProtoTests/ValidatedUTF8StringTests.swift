import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The reader makes Strings from the bytes it validated without validating them again
/// (`String(validatedUTF8:isASCII:)`): each must be the very String that the text denotes, with the
/// right ASCII flag (a String flagged ASCII that is not counts its bytes as characters), on every path
/// that makes one: plain strings, escaped ones, member names, numbers and the pull path's names.
@Suite struct ValidatedUTF8StringTests {
  /// (JSON string literal, the String it denotes)
  static let cases: [(String, String)] = [
    ("\"\"", ""),
    ("\"short\"", "short"),
    ("\"plain ASCII longer than a small string\"", "plain ASCII longer than a small string"),
    ("\"café\"", "café"),
    ("\"résumé naïve déjà über, longer than fifteen bytes\"", "résumé naïve déjà über, longer than fifteen bytes"),
    ("\"日本語のテスト\"", "日本語のテスト"),
    ("\"emoji 😀🚀 and e\u{301} combining\"", "emoji 😀🚀 and e\u{301} combining"),
    ("\"line\\nbreak and \\\"quotes\\\" in ASCII\"", "line\nbreak and \"quotes\" in ASCII"),
    ("\"\\u0041\\u0042 escapes that stay ASCII\"", "AB escapes that stay ASCII"),
    ("\"ASCII text, then an escape beyond it: \\u00e9\"", "ASCII text, then an escape beyond it: é"),
    ("\"a pair \\ud83d\\ude00 at the end\"", "a pair 😀 at the end"),
    ("\"ünïcödé first, then \\t an escape\"", "ünïcödé first, then \t an escape"),
  ]

  /// Everything a caller can observe of a String: equality, hash, characters, scalars, bytes.
  func expectSame(_ parsed: String, _ expected: String, _ context: String) {
    #expect(parsed == expected, "\(context)")
    #expect(parsed.hashValue == expected.hashValue, "\(context)")
    #expect(parsed.count == expected.count, "\(context): \(parsed.count) characters, not \(expected.count)")
    #expect(Array(parsed) == Array(expected), "\(context)")
    #expect(Array(parsed.unicodeScalars) == Array(expected.unicodeScalars), "\(context)")
    #expect(Array(parsed.utf8) == Array(expected.utf8), "\(context)")
    #expect(parsed.utf16.count == expected.utf16.count, "\(context)")
    #expect(parsed.lowercased() == expected.lowercased(), "\(context)")
  }

  @Test(arguments: cases)
  func stringValues(_ literal: String, _ expected: String) throws {
    let value = try JSONReader().parse(literal)
    expectSame(try #require(value.stringValue), expected, literal)
  }

  @Test(arguments: cases)
  func memberNames(_ literal: String, _ expected: String) throws {
    let value = try JSONReader().parse("{\(literal):1}")
    guard case .object(let object) = value else {
      Issue.record("not an object")
      return
    }
    let name = try #require(object.members.first?.key)
    expectSame(name, expected, literal)
  }

  @Test func numberLiterals() throws {
    for literal in ["0", "-12", "1.5e-3", "123456789012345678901234567890"] {
      guard case .number(let number) = try JSONReader().parse(literal) else {
        Issue.record("\(literal) is not a number")
        continue
      }
      expectSame(number.literal, literal, literal)
    }
  }

  /// The direct decode path makes its Strings the same way: a prompt's text and an undeclared
  /// member's name come out as written.
  @Test func directPathStrings() throws {
    let text = "résumé 😀 \\u00e9 and \\\"quoted\\\""
    let frame =
      "{\"type\":\"prompt\",\"text\":\"\(text)\",\"resume_session_id\":\"4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11\","
      + "\"working_directory\":\"/Users/dev\",\"x_extra_key\":\"日本\"}"
    let message = try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(Array(frame.utf8))
    let encoded = MessageEncoder().encodeText(message)
    #expect(encoded.contains("résumé 😀 é and \\\"quoted\\\""), "\(encoded)")
    #expect(encoded.contains("\"x_extra_key\":\"日本\""), "\(encoded)")
  }
}
