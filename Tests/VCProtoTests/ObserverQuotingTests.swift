import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// What the conversation observer's findings quote from a capture (STANDARDS.md#errors: a message
/// quotes at most 60 characters of a name, type or value taken from the frame, then `…`; STANDARDS.md#observing):
/// each value here is a megabyte long and starts with an API key, and every finding
/// that quotes it must hold the masked key and 60 characters, never the key and never the rest.
@Suite struct ObserverQuotingTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"
  static let megabyte = 1 << 20

  /// `xx <key> ` then a megabyte of `filler`.
  static func hostile(_ filler: Character) -> String {
    "xx \(key) " + String(repeating: filler, count: megabyte)
  }

  /// How the rule quotes `hostile(filler)`: the key masked first, then the first 60 characters of
  /// the masked text ("xx «redacted» " is 14 of them), then `…`, in quotes.
  static func quoted(_ filler: Character) -> String {
    "\"xx \(Redaction.mask) " + String(repeating: filler, count: 60 - 14) + "…\""
  }

  static func frame(_ direction: MessageDirection, _ value: JSONValue) -> ConversationObserver.Frame {
    ConversationObserver.Frame(direction: direction, message: value.objectValue!)
  }

  static func hello(version: JSONValue, capabilities: Bool = false) -> ConversationObserver.Frame {
    var members: JSONValue = [
      "type": "hello", "message": "m", "version": version, "auth_version": 1, "instructions": "i",
    ]
    if capabilities {
      members = [
        "type": "hello", "message": "m", "version": version, "auth_version": 1, "instructions": "i",
        "protocol_versions": ["0.4.0", "0.5.0"], "auth_versions": [1], "capabilities": ["heartbeat"],
      ]
    }
    return frame(.serverToClient, members)
  }

  /// Feeds `frames` to a new observer; returns every finding.
  static func observe(_ frames: [ConversationObserver.Frame]) -> [Finding] {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    return frames.flatMap { observer.observe($0) }
  }

  /// Every finding is short, and none holds the key or more than 60 characters of a hostile value.
  static func expectBounded(_ findings: [Finding]) {
    for finding in findings {
      #expect(finding.message.count <= 400, "\(finding.code): \(finding.message.count) characters")
      #expect(!finding.message.contains("0123456789abcdef"), "\(finding.code) quotes the key")
      #expect(!finding.pointer.contains("0123456789abcdef") && finding.pointer.count <= 64)
    }
  }

  @Test func unknownVersionsAreQuotedShort() {
    let advertised = Self.observe([Self.hello(version: .string(Self.hostile("v")))])
    let negotiated = Self.observe([
      Self.hello(version: "0.5.0"),
      Self.frame(.clientToServer, ["type": "connect", "api_key": .string(Self.key), "protocol_version": "0.5.0"]),
      Self.frame(
        .serverToClient,
        [
          "type": "connected", "message": "m", "session_id": nil,
          "negotiated_protocol_version": .string(Self.hostile("n")),
        ]),
    ])
    for (findings, filler) in [(advertised, Character("v")), (negotiated, "n")] {
      Self.expectBounded(findings)
      let unknown = findings.filter { $0.code == .unknownProtocolVersion }
      #expect(unknown.count == 1)
      #expect(unknown.first?.message.contains(Self.quoted(filler)) == true, "\(unknown.first?.message ?? "none")")
    }
  }

  /// `connected.capabilities` is read for known capability names only (``ConversationObserver/strings(_:known:)``),
  /// so a grant finding names a known capability and never quotes a hostile entry.
  @Test func grantedCapabilityNamesOnlyKnownOnes() {
    let findings = Self.observe([
      Self.hello(version: "0.5.0", capabilities: true),
      Self.frame(
        .clientToServer,
        [
          "type": "connect", "api_key": .string(Self.key), "protocol_version": "0.5.0",
          "protocol_versions": ["0.4.0", "0.5.0"], "capabilities": ["heartbeat"],
        ]),
      Self.frame(
        .serverToClient,
        [
          "type": "connected", "message": "m", "session_id": nil, "negotiated_protocol_version": "0.5.0",
          "capabilities": [.string(Self.hostile("c")), "heartbeat", "draining"], "auth_version": 1,
        ]),
    ])
    Self.expectBounded(findings)
    let grants = findings.filter { $0.code == .negotiationMismatch && $0.pointer == "/capabilities" }
    #expect(
      grants.map(\.message) == [
        "connected grants draining, which the hello did not offer or the connect did not ask for"
      ])
  }

  @Test func refusalQuotesAnnouncementAndRequiredShort() {
    let findings = Self.observe([
      Self.hello(version: "0.5.0"),
      Self.frame(
        .clientToServer,
        ["type": "connect", "api_key": .string(Self.key), "protocol_version": .string(Self.hostile("p"))]),
      Self.frame(
        .serverToClient,
        [
          "type": "error", "message": .string(Self.hostile("e")), "code": "unsupported_protocol_version",
          "required": .string(Self.hostile("r")), "received": .string(Self.hostile("w")),
        ]),
    ])
    Self.expectBounded(findings)
    let code = findings.first { $0.pointer == "/code" }
    let required = findings.first { $0.pointer == "/required" }
    #expect(code?.message.contains("protocol_version " + Self.quoted("p")) == true, "\(code?.message ?? "none")")
    #expect(required?.message.hasPrefix("required is " + Self.quoted("r") + ";") == true)
  }

  @Test func typesBeforeAuthenticationAreQuotedShort() {
    let findings = Self.observe([
      Self.hello(version: "0.5.0"),
      Self.frame(.clientToServer, ["type": .string(Self.hostile("t")), "api_key": .string(Self.key)]),
      Self.frame(.serverToClient, ["type": .string(Self.hostile("u")), "session_id": .string(Self.hostile("s"))]),
    ])
    Self.expectBounded(findings)
    let client = findings.first { $0.code == .beforeAuthentication }
    let server = findings.first { $0.code == .serverFrameBeforeAuthentication }
    #expect(client?.message.hasPrefix(Self.quoted("t") + " sent before") == true, "\(client?.message ?? "none")")
    #expect(server?.message.hasPrefix(Self.quoted("u") + " sent to") == true, "\(server?.message ?? "none")")
  }

  /// A secret member inside a quoted value is masked too, not only key-shaped text.
  @Test func secretMembersInQuotedTextAreMasked() {
    let findings = Self.observe([
      Self.hello(version: "0.5.0"),
      Self.frame(.clientToServer, ["type": #"{"api_key":"hunter2-not-key-shaped"}"#]),
    ])
    let client = findings.first { $0.code == .beforeAuthentication }
    #expect(client != nil)
    #expect(client?.message.contains("hunter2") == false, "\(client?.message ?? "none")")
  }
}
