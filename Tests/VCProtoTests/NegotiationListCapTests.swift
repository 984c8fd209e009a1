import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The handshake-list cap of STANDARDS.md#limits (64 entries) holds at the negotiator's entry too,
/// not only for frames that went through the validator: a server engine, or any caller that builds a
/// ``ClientAnnouncement`` by hand, never intersects or sorts a list of 100,000 capabilities.
@Suite struct NegotiationListCapTests {
  static let apiKey = "untethered-0123456789abcdef0123456789abcdef"
  static let offer = ServerOffer(versions: .realHead, capabilities: [Capability.heartbeat])

  static func names(_ count: Int) -> [String] { (0..<count).map { "capability_\($0)" } }

  /// A `connect` as the server engine receives it, asking for `count` capabilities.
  static func connect(capabilities count: Int) -> JSONObject {
    var frame = JSONObject([.init(key: "type", value: "connect"), .init(key: "api_key", value: .string(apiKey))])
    frame["protocol_version"] = "0.5.0"
    frame["capabilities"] = .array(names(count).map { .string($0) } + [.string(Capability.heartbeat)])
    return frame
  }

  /// The frames a server engine sends for `connect`, and whether it closed the socket.
  static func serve(_ connect: JSONObject) throws -> (sent: [String], closed: Bool) {
    var server = ServerEngine(ServerConfiguration(offer: offer, apiKey: apiKey), memory: ServerMemory())
    _ = try server.handle(.transportOpened(challenge: nil), now: 0)
    let actions = try server.handle(.frameReceived(connect), now: 1)
    var sent: [String] = []
    var closed = false
    for action in actions {
      switch action {
      case .send: sent.append(action.sentFrame?["type"]?.stringValue ?? "?")
      case .closeTransport: closed = true
      default: break
      }
    }
    return (sent, closed)
  }

  @Test func negotiatorRefusesAHandBuiltAnnouncementOverTheCap() throws {
    // 64 entries is the cap (STANDARDS.md#limits): negotiated as usual.
    let atCap = ClientAnnouncement(protocolVersion: "0.5.0", capabilities: Self.names(63) + [Capability.heartbeat])
    let outcome = try Negotiator.negotiate(server: Self.offer, client: atCap).get()
    #expect(outcome.capabilities == [Capability.heartbeat])
    // 65 capabilities: refused before any is read, naming the list.
    let capabilities = ClientAnnouncement(protocolVersion: "0.5.0", capabilities: Self.names(65))
    #expect(throws: HandshakeListTooLong(list: "capabilities", count: 65, limit: 64)) {
      try Negotiator.negotiate(server: Self.offer, client: capabilities)
    }
    // 100,000 protocol versions: the other list, checked the same way.
    let versions = ClientAnnouncement(protocolVersion: "0.5.0", protocolVersions: Self.names(100_000))
    #expect(throws: HandshakeListTooLong(list: "protocol_versions", count: 100_000, limit: 64)) {
      try Negotiator.negotiate(server: Self.offer, client: versions)
    }
    // The cap is the validator's default, and a caller may set another.
    #expect(ValidationOptions(version: .v0_2_0).maxHandshakeListItems == 64)
    #expect(throws: HandshakeListTooLong(list: "capabilities", count: 3, limit: 2)) {
      try Negotiator.negotiate(
        server: Self.offer, client: ClientAnnouncement(capabilities: Self.names(3)), maxListItems: 2)
    }
    let error = HandshakeListTooLong(list: "capabilities", count: 65, limit: 64)
    #expect(error.description.contains("connect.capabilities lists 65 entries"))
  }

  @Test func serverEngineRefusesAConnectOverTheCap() throws {
    // 63 + heartbeat = 64 entries: at the cap, negotiated as usual.
    let atCap = try Self.serve(Self.connect(capabilities: 63))
    #expect(atCap.sent.first == "connected")
    #expect(!atCap.closed)
    // 64 + heartbeat = 65: the generic refusal of every server-side failure (STANDARDS.md#negotiation-and-auth), then
    // close.
    let over = try Self.serve(Self.connect(capabilities: 64))
    #expect(over.sent == ["auth_error"])
    #expect(over.closed)
  }
}
