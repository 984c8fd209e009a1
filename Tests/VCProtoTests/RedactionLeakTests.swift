import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Each way a secret used to get past redaction, pinned: the logger's excerpt of a malformed frame
/// (the text does not parse, so only the tolerant scan stands between the secret and the log).
@Suite struct RedactionLeakTests {
  /// The excerpts the logger writes for `frame` (a malformed frame).
  func excerpts(_ frame: String) -> String {
    let sink = RecordingSink()
    _ = Validator(options: ValidationOptions(version: .v0_2_0), logger: sink.logger(.debug)).validate(frame)
    let text = sink.records.map(\.message).joined(separator: "\n")
    #expect(text.contains("malformed frame"), "the frame was expected not to parse: \(frame)")
    return text
  }

  static let secret = "hunter2-secret-value"
  static let keyHex = "00112233445566778899aabbccddeeff"

  @Test(arguments: [
    // An escaped member name.
    #"{"type":"connect","api\u005fkey":"hunter2-secret-value",,}"#,
    #"{"type":"connect","\u0061pi_key":"hunter2-secret-value",,}"#,
    // The secret member given as an array, an object, a number; and the other secret member.
    #"{"type":"connect","api_key":["hunter2-secret-value"],,}"#,
    #"{"type":"connect","api_key":{"k":"hunter2-secret-value"},,}"#,
    #"{"type":"connect","auth_response":["hunter2-secret-value", 1],,}"#,
    // A member name written in another case or style, unquoted or single-quoted (malformed anyway).
    #"{"type":"connect","API_KEY":"hunter2-secret-value",,}"#,
    #"{"type":"connect",apiKey:"hunter2-secret-value"}"#,
    #"{'type':'connect','api_key':'hunter2-secret-value'}"#,
    // Cut off inside the secret.
    #"{"type":"connect","api_key":"hunter2-secret-value"#,
  ])
  func secretMemberValueIsMasked(frame: String) {
    let logged = excerpts(frame)
    #expect(!logged.contains("hunter2"), "\(logged)")
    #expect(logged.contains(Redaction.mask))
  }

  @Test func numericSecretIsMasked() {
    let logged = excerpts(#"{"type":"connect","api_key":9876543210123,,}"#)
    #expect(!logged.contains("9876543210123"), "\(logged)")
  }

  @Test(arguments: [
    // An escaped hyphen, an escaped digit, an escaped letter of the prefix, upper case: all keys.
    #"{"type":"connect","x":"untethered\u002d00112233445566778899aabbccddeeff",,}"#,
    #"{"type":"connect","x":"untethered-00\u00312233445566778899aabbccddeeff",,}"#,
    #"{"type":"connect","x":"\u0075ntethered-00112233445566778899aabbccddeeff",,}"#,
    #"{"type":"connect","x":"UNTETHERED-00112233445566778899AABBCCDDEEFF",,}"#,
    // As a member name, escaped, and outside any string.
    #"{"type":"connect","untethered-00112233445566778899aabbccddeeff\u0020":1,,}"#,
    #"{"type":"connect",x:untethered-00112233445566778899aabbccddeeff}"#,
  ])
  func keyShapedTextIsMasked(frame: String) {
    let logged = excerpts(frame)
    // Not one run of 8 key digits survives, in either case.
    for start in stride(from: 0, through: Self.keyHex.count - 8, by: 4) {
      let run = String(Self.keyHex.dropFirst(start).prefix(8))
      #expect(!logged.lowercased().contains(run), "\(run) leaked: \(logged)")
    }
    #expect(logged.contains(Redaction.mask))
  }

  /// The tolerant scan keeps everything that is not secret as written.
  @Test func nonSecretTextIsKept() {
    let text = #"{"type":"connect","session_id":"a\u0062c","api_keys":"kept",,}"#
    #expect(Redaction.redactedText(text) == text)
  }

  @Test func redactedValueMasksKeyShapedMemberNamesAndAnySecretType() throws {
    let value = try JSONReader().parse(
      #"{"type":"connect","untethered-00112233445566778899aabbccddeeff":1,"api_key":[1,{"a":2}],"nested":{"auth_response":7}}"#
    )
    let text = Redaction.redacted(value).jsonText
    #expect(!text.contains("0011223344"))
    #expect(
      text
        == #"{"type":"connect","«redacted»":1,"api_key":"«redacted»","nested":{"auth_response":"«redacted»"}}"#)
  }

  @Test func tolerantStringDecoding() {
    func decode(_ s: String) -> (String, Int) {
      let t = TolerantJSONString.decode(Array(s.utf8), from: 0)
      return (t.value, t.end)
    }
    #expect(decode(#""a\u0062\n\"c" tail"#) == ("ab\n\"c", 14))
    #expect(decode(#""\ud83d\ude00""#) == ("😀", 14))
    #expect(decode(#""\ud83d x""#) == ("\u{FFFD} x", 10))
    #expect(decode(#""\u00zz\q"#) == (#"\u00zz\q"#, 9))
  }
}
