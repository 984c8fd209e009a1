import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A `WebSocketMessage` prints as its kind, size and a short preview with secrets masked as log
/// records mask them, never as a byte array (issue 30) and never with a secret.
@Suite struct WebSocketMessageDescriptionTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"

  /// Every way the message can be printed.
  static func printed(_ message: WebSocketMessage) -> [String] {
    var dumped = ""
    dump(message, to: &dumped)
    return [message.description, message.debugDescription, "\(message)", String(reflecting: message), dumped]
  }

  @Test func aTextMessageShowsKindSizeAndARedactedPreview() {
    let text = #"{"type":"connect","api_key":"\#(Self.key)","protocol_version":"0.5.0"}"#
    let message = WebSocketMessage.text(text)
    #expect(
      message.description
        == #"text, \#(text.utf8.count) bytes: {"type":"connect","api_key":"«redacted»","protocol_version":"0.5.0"}"#)
    for output in Self.printed(message) {
      #expect(!output.contains("0123456789abcdef"), "\(output)")
      #expect(!output.contains("123, 34"), "printed as bytes: \(output)")
    }
    #expect(message.debugDescription.hasPrefix("WebSocketMessage(text, "))
  }

  @Test(arguments: [
    #"{"type":"connect","auth_version":2,"client_nonce":"00","auth_response":"c0ffee00c0ffee00c0ffee00"}"#,
    #"{"type":"connect","API-Key":{"nested":"c0ffee00c0ffee00c0ffee00"}}"#,
    #"{"type":"note","text":"my key is untethered-c0ffee00c0ffee00c0ffee00"}"#,
    #"{"type":"connect","api\u005fkey":"c0ffee00c0ffee00c0ffee00"}"#,
    #"{api_key: c0ffee00c0ffee00c0ffee00"#,
  ])
  func secretsNeverShow(_ text: String) {
    for output in Self.printed(.text(text)) {
      #expect(!output.contains("c0ffee00"), "\(output)")
    }
  }

  /// The redaction reads a bounded prefix: a secret whose name falls in it is masked up to its end,
  /// and what lies beyond is never shown; the preview stays short whatever the size.
  @Test func aHugeMessageGivesABoundedPreview() {
    for padding in [0, 4_000, 4_070, 4_080, 4_090, 4_095, 100_000] {
      let text =
        #"{"type":"note","pad":""# + String(repeating: "x", count: padding)
        + #"","api_key":"c0ffee00c0ffee00c0ffee00"}"#
      for output in Self.printed(.text(text)) {
        #expect(!output.contains("c0ffee00"), "padding \(padding): \(output.suffix(80))")
        #expect(output.unicodeScalars.count < 400, "padding \(padding): \(output.unicodeScalars.count) scalars")
      }
      #expect(WebSocketMessage.text(text).description.hasPrefix("text, \(text.utf8.count) bytes: "))
    }
    let preview = WebSocketMessage.text(String(repeating: "y", count: 1_000_000)).description
    #expect(preview == "text, 1000000 bytes: " + String(repeating: "y", count: 96) + "…")
  }

  @Test func controlCharactersAreEscaped() {
    let message = WebSocketMessage.text("{\"a\":1}\n[fake] log line\u{7}")
    #expect(message.description == #"text, 24 bytes: {"a":1}\n[fake] log line\u{7}"#)
  }

  @Test func aBinaryMessageShowsItsFirstBytesInHex() {
    let short = WebSocketMessage.binary([0x56, 0x43, 0x01, 0x00])
    #expect(short.description == "binary, 4 bytes: 56 43 01 00")
    let long = WebSocketMessage.binary(Array(repeating: 0xAB, count: 1_000))
    #expect(
      long.description == "binary, 1000 bytes: " + Array(repeating: "ab", count: 16).joined(separator: " ") + " …")
  }
}
