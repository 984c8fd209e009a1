import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `authenticated_frames` follows the auth the server performed (STANDARDS.md#authenticated-frames): its keys
/// come from an auth v2 handshake, so a `connect` that authenticates with the plain key is never
/// granted it, whatever its `auth_version` member claims (issue 29, item 6).
@Suite struct AuthenticatedFramesGrantTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"
  static let offer = ServerOffer(
    protocolVersions: ["0.4.0", "0.5.0"], authVersions: [1, 2],
    capabilities: [Capability.authenticatedFrames, Capability.heartbeat])

  /// A v1 connect (the key in clear) that claims `auth_version: 2`.
  static var lyingConnect: JSONObject {
    .frame(
      "connect",
      [
        "api_key": .string(key), "protocol_version": "0.5.0", "auth_version": 2,
        "capabilities": [.string(Capability.authenticatedFrames), .string(Capability.heartbeat)],
      ])
  }

  @Test func serverEngineGrantsNoFramesToAnAuthV1ConnectClaimingV2() throws {
    var engine = ServerEngine(ServerConfiguration(offer: Self.offer, apiKey: Self.key))
    _ = try engine.handle(.transportOpened(challenge: String(repeating: "c3", count: 32)), now: 0)
    let actions = try engine.handle(.frameReceived(Self.lyingConnect), now: 1)
    #expect(engine.state == .authenticated)
    #expect(engine.outcome?.authVersion == 1)
    #expect(engine.outcome?.capabilities == [Capability.heartbeat])
    let connected = actions.sentFrames.filter { $0["type"] == "connected" }
    #expect(connected.count == 1)
    #expect(connected.first?["capabilities"] == [.string(Capability.heartbeat)])
    #expect(connected.first?["auth_version"] == 1)
    let told = actions.contains {
      if case .deliver(.authenticated(let outcome, _, _)) = $0 {
        return outcome.capabilities == [Capability.heartbeat] && outcome.authVersion == 1
      }
      return false
    }
    #expect(told, "the application is told the capabilities actually granted")
  }

  @Test func announcementOfAConnectIsTheAuthItPerforms() throws {
    let claimed = ConnectMessage(apiKey: Self.key, authVersion: 2)
    #expect(ClientAnnouncement(connect: claimed).authVersion == 1)
    let outcome = try Negotiator.negotiate(
      server: Self.offer,
      client: ClientAnnouncement(
        connect: ConnectMessage(
          apiKey: Self.key, capabilities: [Capability.authenticatedFrames], authVersion: 2))
    ).get()
    #expect(!outcome.capabilities.contains(Capability.authenticatedFrames))
  }
}
