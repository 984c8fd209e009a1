import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The server engine as a validation boundary (issue 30): it takes each WebSocket message as it
/// arrived, decodes it once with the connection's version, and hands the application only validated,
/// typed messages or an explicit violation (STANDARDS.md#server-boundary).
@Suite struct ServerValidationBoundaryTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"

  static func ready(_ version: String = "0.5.0", capabilities: [String] = []) throws -> ServerEngine {
    var server = ServerEngine(
      ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], capabilities: capabilities), apiKey: key,
        envelopes: EnvelopeCodec()))
    _ = try server.handle(.transportOpened(challenge: nil), now: 0)
    var connect = JSONObject.frame("connect", ["api_key": .string(key), "protocol_version": .string(version)])
    if !capabilities.isEmpty { connect["capabilities"] = .array(capabilities.map { .string($0) }) }
    _ = try server.handle(.frameReceived(connect), now: 0)
    #expect(server.state == .authenticated)
    return server
  }

  static func violations(_ actions: [ServerAction]) -> [ProtocolViolation] {
    actions.compactMap { if case .deliver(.violation(let v)) = $0 { v } else { nil } }
  }

  static func requests(_ actions: [ServerAction]) -> [ClientMessage] {
    actions.compactMap { if case .deliver(.request(let m)) = $0 { m } else { nil } }
  }

  /// A request that fails validation is never delivered: the application gets the violation with
  /// every finding, the client the `error` answer, and the connection goes on.
  @Test func anInvalidRequestIsReportedNotDelivered() throws {
    var server = try Self.ready()
    let actions = try server.handle(.received(.text(#"{"type":"execute_command","command_id":5}"#)), now: 1)
    #expect(Self.requests(actions).isEmpty)
    let violation = try #require(Self.violations(actions).first)
    #expect(violation.messageType == "execute_command")
    #expect(violation.disposition == .dropped)
    let errors = violation.findings.filter { $0.severity == .error }.map { "\($0.code) \($0.pointer)" }.sorted()
    #expect(errors == ["missing_field /working_directory", "wrong_type /command_id"])
    #expect(
      actions.sentFrames == [
        .frame("error", ["message": "Error processing message: wrong_type at /command_id"])
      ])
    #expect(server.state == .authenticated)
    // The same request, valid, arrives typed.
    let valid = try server.handle(
      .received(.text(#"{"type":"execute_command","command_id":"git.status","working_directory":"/srv"}"#)), now: 2)
    #expect(
      Self.requests(valid) == [
        .executeCommand(ExecuteCommandMessage(commandId: "git.status", workingDirectory: "/srv"))
      ])
  }

  /// A type this version does not define (a newer client's) is still delivered, whole.
  @Test func anUnknownTypeIsDeliveredAsUnknown() throws {
    var server = try Self.ready()
    let actions = try server.handle(.received(.text(#"{"type":"summon_wizard","level":9}"#)), now: 1)
    #expect(Self.violations(actions).isEmpty)
    #expect(Self.requests(actions) == [.unknown(.frame("summon_wizard", ["level": 9]))])
  }

  /// A frame without a type after authentication was handed to the application before; now it is a
  /// violation (missing_type), dropped.
  @Test func aFrameWithoutTypeIsAViolation() throws {
    var server = try Self.ready()
    let actions = try server.handle(.received(.text(#"{"session_id":"s"}"#)), now: 1)
    #expect(Self.requests(actions).isEmpty)
    #expect(Self.violations(actions).map(\.disposition) == [.dropped])
    #expect(Self.violations(actions).first?.findings.map(\.code) == [.missingType])
  }

  /// A `connect` that fails validation is a handshake violation: `auth_error`, then close.
  @Test func anInvalidConnectClosesTheConnection() throws {
    var server = ServerEngine(ServerConfiguration(offer: ServerOffer(protocolVersions: ["0.5.0"]), apiKey: Self.key))
    _ = try server.handle(.transportOpened(challenge: nil), now: 0)
    let actions = try server.handle(
      .received(.text(#"{"type":"connect","api_key":"\#(Self.key)","protocol_version":5}"#)), now: 1)
    #expect(actions.sentFrames == [.frame("auth_error", ["message": "Authentication failed"])])
    let violation = try #require(Self.violations(actions).first)
    #expect(violation.disposition == .closed(.authFailed))
    #expect(violation.findings.map(\.pointer) == ["/protocol_version"])
    #expect(server.state == .closed)
  }

  /// Before authentication anything but ping and connect is refused, and reported.
  @Test func aRequestBeforeAuthenticationIsAViolation() throws {
    var server = ServerEngine(ServerConfiguration(offer: ServerOffer(protocolVersions: ["0.5.0"]), apiKey: Self.key))
    _ = try server.handle(.transportOpened(challenge: nil), now: 0)
    let actions = try server.handle(.received(.text(#"{"type":"prompt","text":"hi"}"#)), now: 1)
    let violation = try #require(Self.violations(actions).first)
    #expect(violation.findings.map(\.code) == [.beforeAuthentication])
    #expect(violation.disposition == .closed(.notAuthenticated))
    #expect(server.state == .closed)
  }

  /// The application sends typed messages; the engine encodes each once, as MessageEncoder does.
  @Test func theApplicationSendsTypedMessages() throws {
    var server = try Self.ready()
    let list = ServerMessage.typed(.frame("session_list", ["sessions": [], "total_count": 0]))
    let actions = try server.handle(.send(list), now: 1)
    #expect(actions == [.send(.text(MessageEncoder().encode(list)))])
  }

  /// Compression negotiated: a binary envelope is opened and its frame decoded; without it, a
  /// binary message is a violation (dropped).
  @Test func envelopesAreOpenedWhenNegotiated() throws {
    let prompt = Array(#"{"type":"prompt","text":"\#(String(repeating: "go ", count: 600))"}"#.utf8)
    let binary = try #require(try EnvelopeCodec().seal(prompt, form: .binary))
    let text = try #require(try EnvelopeCodec().seal(prompt, form: .text))

    var plain = try Self.ready()
    let refused = try plain.handle(.received(.binary(binary)), now: 1)
    #expect(Self.requests(refused).isEmpty)
    #expect(Self.violations(refused).first?.findings.map(\.code) == [.extensionNotNegotiated])
    #expect(plain.state == .authenticated)

    var server = try Self.ready(capabilities: [Capability.compressionBinary, Capability.compressionText])
    let fromBinary = try server.handle(.received(.binary(binary)), now: 1)
    let fromText = try server.handle(.received(.text(text)), now: 2)
    let expected = ClientMessage.typed(try #require(try JSONReader().parse(prompt).objectValue))
    #expect(Self.requests(fromBinary) == [expected])
    #expect(Self.requests(fromText) == [expected])
    // A binary message that is not an envelope: the envelope's finding, dropped.
    let broken = try server.handle(.received(.binary(Array("VC garbage".utf8))), now: 3)
    #expect(Self.violations(broken).map(\.disposition) == [.dropped])
    #expect(Self.violations(broken).first?.findings.first?.code.rawValue.hasPrefix("envelope_") == true)
  }

  /// `subscribed` keeps ids by their exact scalars, as the engine's table does: two canonically
  /// equivalent ids are two sessions (a `Set<String>` made them one).
  @Test func subscribedKeepsEquivalentIdsApart() throws {
    var server = try Self.ready()
    let (a, b) = ("caf\u{e9}", "cafe\u{301}")
    #expect(a == b, "String's == takes them for one")
    for id in [a, b] {
      _ = try server.handle(.frameReceived(.frame("subscribe", ["session_id": .string(id)])), now: 1)
    }
    #expect(server.subscribedCount == 2)
    #expect(server.subscribed.count == 2)
    #expect(server.subscribed == [ExactString(a), ExactString(b)])
    #expect(server.isSubscribed(a) && server.isSubscribed(b))
  }
}
