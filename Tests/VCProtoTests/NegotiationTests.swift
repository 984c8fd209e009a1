import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct NegotiationTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func strings(_ v: JSONValue?) -> [String]? { v?.arrayValue?.compactMap(\.stringValue) }

  static func offer(_ server: JSONValue) throws -> ServerOffer {
    let versions: ServerVersions
    if server["legacy"]?.boolValue == true {
      versions = .legacy
    } else {
      versions = .negotiating(
        floor: try #require(server["floor"]?.stringValue.flatMap(ServerVersions.Floor.init(rawValue:))),
        ceiling: try #require(server["ceiling"]?.stringValue.flatMap(ServerVersions.Ceiling.init(rawValue:))))
    }
    return ServerOffer(
      versions: versions, authVersions: server["auth_versions"]?.arrayValue?.compactMap(\.intValue) ?? [1],
      capabilities: Self.strings(server["capabilities"]) ?? [])
  }

  /// Every case in Vectors/negotiation/ (generated from the reference's outcome matrix by
  /// tools/make_negotiation_vectors.py): the hello advertises the ceiling, and the announcement gives
  /// exactly the recorded outcome or refusal frame.
  @Test func everyNegotiationVector() throws {
    let data = try Data(contentsOf: Self.root.appendingPathComponent("Vectors/negotiation/cases.json"))
    let cases = try #require(try JSONReader().parse(Array(data)).arrayValue)
    // Every cell of the reference's matrix: 14 announced values (absent and null included) x 4 server
    // configurations.
    #expect(cases.filter { $0["source"]?.stringValue == "matrix" }.count == 56)
    var refusals = 0
    for c in cases {
      let id = c["id"]?.stringValue ?? "?"
      let server = try Self.offer(try #require(c["server"]))
      let expect = try #require(c["expect"], "\(id)")
      #expect(server.hello(challenge: nil).version == expect["hello_version"]?.stringValue, "\(id)")
      // JSON null and absent are the same announcement.
      let client = ClientAnnouncement(
        protocolVersion: c["client"]?["protocol_version"]?.stringValue,
        capabilities: Self.strings(c["client"]?["capabilities"]), authVersion: c["client"]?["auth_version"]?.intValue)
      switch try Negotiator.negotiate(server: server, client: client) {
      case .success(let result):
        #expect(expect["refusal"] == nil, "\(id): negotiated \(result)")
        #expect(result.version.rawValue == expect["negotiated_protocol_version"]?.stringValue, "\(id)")
        #expect(result.capabilities == Self.strings(expect["capabilities"]), "\(id)")
        #expect(result.authVersion == expect["auth_version"]?.intValue, "\(id)")
        let connected = result.connected(sessionId: "s", serverProof: nil)
        #expect(connected.negotiatedProtocolVersion == result.version.rawValue, "\(id)")
        #expect(
          Validator(options: ValidationOptions(version: .v0_2_0)).validate(
            MessageEncoder().encode(ServerMessage.connected(connected))
          ).isValid, "\(id)")
      case .failure(let failure):
        refusals += 1
        let want = try #require(expect["refusal"]?.objectValue, "\(id): refused \(failure)")
        let frame = try #require(
          try JSONReader().parse(MessageEncoder().encode(ServerMessage.error(failure.errorMessage))).objectValue)
        #expect(Set(frame.keys) == Set(want.keys), "\(id)")
        for member in want.members { #expect(frame[member.key] == member.value, "\(id): \(member.key)") }
        #expect(
          Validator(options: ValidationOptions(version: .v0_2_0)).validate(
            MessageEncoder().encode(ServerMessage.error(failure.errorMessage))
          ).isValid)
      }
    }
    // 3 matrix values x 3 guarded configurations, 3 rule values x 3, one with extensions.
    #expect(refusals == 19)
  }

  /// The reference's clients against the default real backend.
  @Test func realHeadBackend() throws {
    let head = ServerOffer.realHead
    #expect(head.hello(challenge: nil).version == "0.5.0")
    func negotiated(_ v: String?) -> String? {
      try? Negotiator.negotiate(server: head, client: ClientAnnouncement(protocolVersion: v)).get().version.rawValue
    }
    #expect(negotiated("0.5.0") == "0.5.0")  // iOS
    #expect(negotiated(nil) == "0.4.0")  // Android, web frontend
    let refused = try Negotiator.negotiate(server: head, client: ClientAnnouncement(protocolVersion: "0.3.9"))
    #expect(refused == .failure(NegotiationFailure(received: "0.3.9")))
    // The hello a plain offer sends is exactly the backend's: four members.
    let hello = try #require(
      try JSONReader().parse(MessageEncoder().encode(ServerMessage.hello(head.hello(challenge: nil)))).objectValue)
    #expect(Set(hello.keys) == ["type", "message", "version", "auth_version", "instructions"])
  }

  /// The backend reads two settings once: an unknown floor falls back to 0.4.0, and only `"0"` turns
  /// the offset protocol (the 0.5.0 ceiling) off (versions.md section 6, "Server inputs").
  @Test func configurationSettings() {
    #expect(ServerVersions(floorSetting: nil, offsetProtocolSetting: nil) == .realHead)
    #expect(
      ServerVersions(floorSetting: ":v0.3.0", offsetProtocolSetting: "1")
        == .negotiating(floor: .v0_3_0, ceiling: .v0_5_0))
    #expect(
      ServerVersions(floorSetting: "v0.5.0", offsetProtocolSetting: "0")
        == .negotiating(floor: .v0_5_0, ceiling: .v0_4_0))
    #expect(ServerVersions(floorSetting: "0.2.0", offsetProtocolSetting: "false") == .realHead)
    #expect(ServerVersions(floorSetting: "latest", offsetProtocolSetting: "") == .realHead)
    #expect(ServerVersions.realHead.guardsAgainstOldClients && !ServerVersions.legacy.guardsAgainstOldClients)
    #expect(!ServerVersions.negotiating(floor: .v0_3_0, ceiling: .v0_5_0).guardsAgainstOldClients)
    // What a client can end up with (the hello's vcproto `protocol_versions`).
    #expect(ServerVersions.realHead.reachable.map(\.description) == ["0.4.0", "0.5.0"])
    #expect(
      ServerVersions.negotiating(floor: .v0_3_0, ceiling: .v0_4_0).reachable.map(\.description) == ["0.3.0", "0.4.0"])
    #expect(
      ServerVersions.negotiating(floor: .v0_5_0, ceiling: .v0_4_0).reachable.map(\.description) == ["0.4.0", "0.5.0"])
    #expect(ServerVersions.legacy.reachable == [.v0_2_0])
  }

  /// The list form of the auth vectors' `server` object.
  @Test func offerFromAVersionList() {
    #expect(ServerOffer(protocolVersions: ["0.2.0"]).versions == .legacy)
    #expect(ServerOffer(protocolVersions: []).versions == .legacy)
    #expect(ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], floor: "0.4.0").versions == .realHead)
    #expect(ServerOffer(protocolVersions: ["0.4.0"]).versions == .negotiating(floor: .v0_4_0, ceiling: .v0_4_0))
    #expect(
      ServerOffer(protocolVersions: ["0.3.0", "0.5.0"]).versions == .negotiating(floor: .v0_3_0, ceiling: .v0_5_0))
  }

  @Test func helloAndConnectedCarryExtensionsOnlyWhenUsed() throws {
    let offer = ServerOffer(
      versions: .realHead, authVersions: [1, 2], capabilities: [Capability.heartbeat, Capability.draining])
    let hello = offer.hello(challenge: String(repeating: "ab", count: 32))
    #expect(hello.version == "0.5.0" && hello.authVersion == 1)
    #expect(hello.protocolVersions == ["0.4.0", "0.5.0"] && hello.capabilities == offer.capabilities)
    // A client asking for an extension gets it on 0.5.0 and on the floor alike.
    for announced in ["0.5.0", nil] {
      let outcome = try Negotiator.negotiate(
        server: offer,
        client: ClientAnnouncement(
          connect: ConnectMessage(apiKey: "k", protocolVersion: announced, capabilities: [Capability.heartbeat]))
      ).get()
      #expect(outcome.allows(Capability.heartbeat) && !outcome.allows(Capability.draining))
      let connected = outcome.connected(sessionId: "s", serverProof: nil)
      #expect(connected.capabilities == [Capability.heartbeat] && connected.authVersion == 1)
      let heartbeat = ServerMessage.heartbeat(HeartbeatMessage(timestamp: "2026-01-11T17:25:32Z"))
      #expect(throws: Never.self) { try MessageEncoder().encode(heartbeat, negotiated: outcome.capabilitySet) }
      let draining = ServerMessage.draining(DrainingMessage(message: "bye", retryAfterMs: 5000))
      #expect(throws: ExtensionNotNegotiated.self) {
        try MessageEncoder().encode(draining, negotiated: outcome.capabilitySet)
      }
    }
    // A real client (no capabilities, auth v1) sees exactly the backend's connected.
    let plain = try Negotiator.negotiate(server: offer, client: ClientAnnouncement(protocolVersion: "0.5.0")).get()
    let connected = try #require(
      try JSONReader().parse(
        MessageEncoder().encode(ServerMessage.connected(plain.connected(sessionId: "s", serverProof: nil)))
      ).objectValue)
    #expect(Set(connected.keys) == ["type", "message", "session_id", "negotiated_protocol_version"])
  }

  /// The auth version in the outcome is the one the connect uses.
  @Test func outcomeCarriesTheAuthVersionOfTheConnect() throws {
    let offer = ServerOffer(versions: .legacy, authVersions: [1, 2])
    func authVersion(_ connect: ConnectMessage) throws -> Int {
      try Negotiator.negotiate(server: offer, client: ClientAnnouncement(connect: connect)).get().authVersion
    }
    #expect(try authVersion(ConnectMessage(apiKey: "k")) == 1)
    #expect(try authVersion(ConnectMessage(clientNonce: "00", authResponse: "ab")) == 2)
    #expect(try authVersion(ConnectMessage(authVersion: 2, clientNonce: "00", authResponse: "ab")) == 2)
    #expect(NegotiationOutcome(version: .v0_2_0, capabilities: []).authVersion == 1)
  }

  @Test func versionsParseAsTheBackendDoes() {
    #expect(VersionNumber("0.10.0")! > VersionNumber("0.9.0")!)
    #expect(VersionNumber("1.2") == nil && VersionNumber("a.b.c") == nil && VersionNumber("1..2") == nil)
    #expect(VersionNumber("0.5.0-beta") == nil)
    #expect(VersionNumber(announced: "0.5.0-beta.1")?.description == "0.5.0")
    #expect(VersionNumber(announced: "0.5.0+build")?.description == "0.5.0")
    #expect(VersionNumber(announced: "0.4.0+a-b")?.description == "0.4.0")
    #expect(VersionNumber(announced: "-0.5.0") == nil && VersionNumber(announced: "0.5") == nil)
    #expect(VersionNumber(announced: "0.5.0.0") == nil && VersionNumber(announced: "") == nil)
    #expect(VersionNumber(announced: "99999999999999999999.0.0") == nil)
  }
}
