import Foundation
import Testing

@testable import VCProto

@Suite struct NegotiationTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func strings(_ v: JSONValue?) -> [String]? { v?.arrayValue?.compactMap(\.stringValue) }

  /// Every case in Vectors/negotiation/: the offer (with its floor) and the announcement (with its
  /// auth version) give exactly the recorded outcome or error frame.
  @Test func everyNegotiationVector() throws {
    let data = try Data(contentsOf: Self.root.appendingPathComponent("Vectors/negotiation/cases.json"))
    let cases = try #require(try JSONReader().parse(Array(data)).arrayValue)
    #expect(cases.count >= 20)
    var failures = 0
    for c in cases {
      let id = c["id"]?.stringValue ?? "?"
      let server = ServerOffer(
        protocolVersions: try #require(Self.strings(c["server"]?["protocol_versions"]), "\(id)"),
        authVersions: c["server"]?["auth_versions"]?.arrayValue?.compactMap(\.intValue) ?? [1],
        capabilities: Self.strings(c["server"]?["capabilities"]) ?? [], floor: c["server"]?["floor"]?.stringValue)
      let client = ClientAnnouncement(
        protocolVersion: c["client"]?["protocol_version"]?.stringValue,
        protocolVersions: Self.strings(c["client"]?["protocol_versions"]),
        capabilities: Self.strings(c["client"]?["capabilities"]), authVersion: c["client"]?["auth_version"]?.intValue)
      let outcome = try #require(c["outcome"])
      switch Negotiator.negotiate(server: server, client: client) {
      case .success(let result):
        #expect(outcome["error"] == nil, "\(id): negotiated \(result)")
        #expect(result.version == outcome["negotiated_protocol_version"]?.stringValue, "\(id)")
        #expect(result.capabilities == Self.strings(outcome["capabilities"]), "\(id)")
        #expect(result.authVersion == outcome["auth_version"]?.intValue, "\(id)")
        // The confirmation carries all three and is a valid frame.
        let connected = result.connected(sessionId: "s", serverProof: nil)
        #expect(connected.negotiatedProtocolVersion == result.version && connected.authVersion == result.authVersion)
        #expect(Validator().validate(MessageEncoder().encode(ServerMessage.connected(connected))).isValid, "\(id)")
      case .failure(let failure):
        failures += 1
        let e = try #require(outcome["error"], "\(id): failed \(failure)")
        #expect(NegotiationFailure.code == e["code"]?.stringValue)
        #expect(failure.message == e["message"]?.stringValue, "\(id)")
        #expect(failure.required == e["required"]?.stringValue, "\(id)")
        #expect(failure.received == e["received"]?.stringValue, "\(id)")
        #expect(failure.supported == Self.strings(e["supported"]), "\(id)")
        #expect(failure.requested == Self.strings(e["requested"]), "\(id)")
        // The error frame is a valid protocol message carrying the real backend's members too.
        let frame = MessageEncoder().encode(ServerMessage.error(failure.errorMessage))
        #expect(Validator().validate(frame).isValid, "\(id)")
      }
    }
    #expect(failures >= 5)
  }

  /// The real backend's rule (`connect.protocol_version` is a ceiling; silence gets the floor),
  /// checked against ServerOffer.realHead for every client the reference names.
  @Test func realHeadBackendCompatibility() throws {
    let head = ServerOffer.realHead
    #expect(head.hello(challenge: nil).version == "0.5.0")
    #expect(head.floorVersion.description == "0.4.0")
    func negotiated(_ v: String?) -> String? {
      try? Negotiator.negotiate(server: head, client: ClientAnnouncement(protocolVersion: v)).get().version
    }
    #expect(negotiated("0.5.0") == "0.5.0")  // iOS
    #expect(negotiated(nil) == "0.4.0")  // Android, web frontend
    #expect(negotiated("0.4.0") == "0.4.0")
    #expect(negotiated("1.0.0") == "0.5.0")
    #expect(negotiated("garbage") == "0.4.0")
    let refused = Negotiator.negotiate(server: head, client: ClientAnnouncement(protocolVersion: "0.3.9"))
    #expect(
      refused
        == .failure(
          NegotiationFailure(
            message: "Client is too old; upgrade required", required: "0.4.0", received: "0.3.9",
            supported: ["0.4.0", "0.5.0"], requested: ["0.3.9"])))
  }

  /// With no parseable server version, `required` used to be "" (an invalid frame). Every offer now
  /// has at least one supported version: without a parseable one it is a 0.2.0 server.
  @Test func requiredIsNeverEmpty() throws {
    let offers = [
      ServerOffer(protocolVersions: []),
      ServerOffer(protocolVersions: ["latest", "1.2"], floor: "latest"),
      ServerOffer(hello: HelloMessage(message: "Welcome", version: "latest", authVersion: 1, instructions: "")),
    ]
    for offer in offers {
      #expect(offer.supportedVersions == [.legacy])
      #expect(offer.floorVersion == .legacy)
      #expect(offer.hello(challenge: nil).version == "0.2.0")
      #expect(try Negotiator.negotiate(server: offer, client: ClientAnnouncement()).get().version == "0.2.0")
      for client in [ClientAnnouncement(protocolVersion: "0.1.0"), ClientAnnouncement(protocolVersions: ["0.1.0"])] {
        let failure = try #require(Negotiator.negotiate(server: offer, client: client).failure)
        #expect(failure.required == "0.2.0" && failure.supported == ["0.2.0"])
        #expect(Validator().validate(MessageEncoder().encode(ServerMessage.error(failure.errorMessage))).isValid)
      }
    }
    // A floor that is not supported is ignored: the lowest supported version.
    #expect(ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], floor: "0.2.0").floorVersion.description == "0.4.0")
    #expect(ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], floor: "0.5.0").floorVersion.description == "0.5.0")
  }

  @Test func helloAndConnectedRoundTripTheOutcome() throws {
    let offer = ServerOffer(
      protocolVersions: ["0.2.0"], authVersions: [1, 2], capabilities: [Capability.heartbeat, Capability.draining])
    let hello = offer.hello(challenge: String(repeating: "ab", count: 32))
    #expect(hello.version == "0.2.0" && hello.authVersion == 1)
    #expect(ServerOffer(hello: hello) == offer)
    #expect(
      ServerOffer(hello: HelloMessage(message: "Welcome", version: "0.2.0", authVersion: 1, instructions: ""))
        == .legacy)
    let outcome = try Negotiator.negotiate(
      server: offer, client: ClientAnnouncement(connect: ConnectMessage(capabilities: [Capability.heartbeat]))
    ).get()
    #expect(outcome.allows(Capability.heartbeat) && !outcome.allows(Capability.draining))
    #expect(outcome.authVersion == 1)
    let connected = outcome.connected(sessionId: "s", serverProof: nil)
    #expect(connected.authVersion == 1)
    #expect(Validator().validate(MessageEncoder().encode(ServerMessage.connected(connected))).isValid)
    // The negotiated set drives the encoder's gate.
    let heartbeat = ServerMessage.heartbeat(HeartbeatMessage(timestamp: "2026-01-11T17:25:32Z"))
    #expect(throws: Never.self) { try MessageEncoder().encode(heartbeat, negotiated: outcome.capabilitySet) }
    let draining = ServerMessage.draining(DrainingMessage(message: "bye", retryAfterMs: 5000))
    #expect(throws: ExtensionNotNegotiated.self) {
      try MessageEncoder().encode(draining, negotiated: outcome.capabilitySet)
    }
  }

  /// The auth version in the outcome is the one the connect uses.
  @Test func outcomeCarriesTheAuthVersionOfTheConnect() throws {
    let offer = ServerOffer(protocolVersions: ["0.2.0"], authVersions: [1, 2])
    func authVersion(_ connect: ConnectMessage) throws -> Int {
      try Negotiator.negotiate(server: offer, client: ClientAnnouncement(connect: connect)).get().authVersion
    }
    #expect(try authVersion(ConnectMessage(apiKey: "k")) == 1)
    #expect(try authVersion(ConnectMessage(clientNonce: "00", authResponse: "ab")) == 2)
    #expect(try authVersion(ConnectMessage(authVersion: 2, clientNonce: "00", authResponse: "ab")) == 2)
    #expect(NegotiationOutcome(version: "0.2.0", capabilities: []).authVersion == 1)
  }

  @Test func versionsOrderNumerically() {
    #expect(ProtocolVersion("0.10.0")! > ProtocolVersion("0.9.0")!)
    #expect(ProtocolVersion("1.2") == nil && ProtocolVersion("a.b.c") == nil && ProtocolVersion("1..2") == nil)
    #expect(ProtocolVersion("0.5.0-beta") == nil)
    #expect(ProtocolVersion(announced: "0.5.0-beta.1")?.description == "0.5.0")
    #expect(ProtocolVersion(announced: "0.5.0+build")?.description == "0.5.0")
    #expect(ProtocolVersion(announced: "-0.5.0") == nil && ProtocolVersion(announced: "0.5") == nil)
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let f) = self { return f }
    return nil
  }
}
