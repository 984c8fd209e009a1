import Foundation
import Testing
import VCProto

/// `vcproto validate` on a capture whose conversation-level findings would quote hostile values: a
/// megabyte-long `hello.version`, `connected.negotiated_protocol_version`, announced
/// `protocol_version`, refusal `required`, a client and a server `type` before authentication, and
/// an API key in a `connect` and at the start of every long value. Text and JSON output quote at
/// most 60 characters of each (STANDARDS.md#errors) and never the key.
@Suite(.tags(.slow), .enabled(if: slowSuitesRun)) struct ConversationQuotingOutputTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"

  static func hostile(_ filler: String) -> String {
    "xx \(key) " + String(repeating: filler, count: 1 << 20)
  }

  /// One JSON Lines record: `{"direction", "data": "<frame text>"}`.
  static func record(_ direction: String, _ frame: JSONValue) -> String {
    JSONValue.object(
      JSONObject([
        .init(key: "direction", value: .string(direction)), .init(key: "data", value: .string(frame.jsonText)),
      ])
    ).jsonText
  }

  static var capture: String {
    let s = "server_to_client"
    let c = "client_to_server"
    let lines: [String] = [
      record(
        s, ["type": "hello", "message": "m", "version": .string(hostile("v")), "auth_version": 1, "instructions": "i"]),
      record(s, ["type": "hello", "message": "m", "version": "0.5.0", "auth_version": 1, "instructions": "i"]),
      record(c, ["type": "connect", "api_key": .string(key), "protocol_version": "0.5.0"]),
      record(
        s,
        [
          "type": "connected", "message": "m", "session_id": nil,
          "negotiated_protocol_version": .string(hostile("n")),
        ]),
      record(s, ["type": "hello", "message": "m", "version": "0.5.0", "auth_version": 1, "instructions": "i"]),
      record(c, ["type": "connect", "api_key": .string(key), "protocol_version": .string(hostile("p"))]),
      record(
        s,
        [
          "type": "error", "message": .string(hostile("e")), "code": "unsupported_protocol_version",
          "required": .string(hostile("r")), "received": "0.3.0",
        ]),
      record(s, ["type": "hello", "message": "m", "version": "0.5.0", "auth_version": 1, "instructions": "i"]),
      record(c, ["type": .string(hostile("t")), "api_key": .string(key)]),
      record(s, ["type": .string(hostile("u")), "session_id": .string(hostile("s"))]),
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// Whether `text` holds more than 60 of one filler letter in a row (a quote not cut at 60).
  static func hasLongRun(_ text: String) -> Bool {
    ["v", "n", "p", "e", "r", "t", "u", "s"].contains { text.contains(String(repeating: $0, count: 61)) }
  }

  @Test func textAndJSONQuoteShortAndNeverTheKey() throws {
    let capture = Self.capture
    let url = temporaryFile(capture, name: "quoting.jsonl")
    let directory = url.deletingLastPathComponent().path
    let text = runCommand(["validate", "quoting.jsonl"], directory: directory)
    let json = runCommand(["validate", "--format", "json", "quoting.jsonl"], directory: directory)
    for (name, run) in [("text", text), ("json", json)] {
      #expect(run.status == 1, "\(name)")
      #expect(!run.out.contains("0123456789abcdef") && !run.err.contains("0123456789abcdef"), "\(name) prints the key")
      #expect(!Self.hasLongRun(run.out), "\(name) quotes more than 60 characters of a value")
      // Ten frames, a few findings each, every quote cut: a few kilobytes for 8 MB of input.
      #expect(run.out.utf8.count < 16_384, "\(name): \(run.out.utf8.count) bytes")
      for code in [
        "unknown_protocol_version", "negotiation_mismatch", "before_authentication",
        "server_frame_before_authentication",
      ] {
        #expect(run.out.contains(code), "\(name) lacks \(code)")
      }
    }
    // The rule's own form: the key masked, then 60 characters in all, then `…`.
    let quoted = "\"xx \(Redaction.mask) " + String(repeating: "p", count: 46) + "…\""
    #expect(text.out.contains("client announcing protocol_version " + quoted))
  }
}
