import Foundation
import Testing

@testable import VCProto

@Suite struct NegotiationTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test func everyNegotiationVector() throws {
    let data = try Data(contentsOf: Self.root.appendingPathComponent("Vectors/negotiation/cases.json"))
    let cases = try #require(try JSONReader().parse(Array(data)).arrayValue)
    #expect(cases.count >= 8)
    for c in cases {
      let id = c["id"]?.stringValue ?? "?"
      let strings = { (v: JSONValue?) in v?.arrayValue?.compactMap(\.stringValue) }
      let server = ServerOffer(
        protocolVersions: strings(c["server"]?["protocol_versions"]) ?? [],
        authVersions: c["server"]?["auth_versions"]?.arrayValue?.compactMap(\.intValue) ?? [1],
        capabilities: strings(c["server"]?["capabilities"]) ?? [])
      let client = ClientAnnouncement(
        protocolVersion: c["client"]?["protocol_version"]?.stringValue,
        protocolVersions: strings(c["client"]?["protocol_versions"]),
        capabilities: strings(c["client"]?["capabilities"]))
      let outcome = try #require(c["outcome"])
      switch Negotiator.negotiate(server: server, client: client) {
      case .success(let result):
        #expect(outcome["error"] == nil, "\(id): negotiated \(result)")
        #expect(result.version == outcome["negotiated_protocol_version"]?.stringValue, "\(id)")
        #expect(result.capabilities == strings(outcome["capabilities"]), "\(id)")
      case .failure(let failure):
        let e = try #require(outcome["error"], "\(id): failed \(failure)")
        #expect(NegotiationFailure.code == e["code"]?.stringValue)
        #expect(failure.required == e["required"]?.stringValue, "\(id)")
        #expect(failure.received == e["received"]?.stringValue, "\(id)")
        #expect(failure.supported == strings(e["supported"]), "\(id)")
        #expect(failure.requested == strings(e["requested"]), "\(id)")
        // The error frame is a valid protocol message carrying the real backend's members too.
        let frame = MessageEncoder().encode(ServerMessage.error(failure.errorMessage))
        #expect(Validator().validate(frame).isValid)
      }
    }
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
      server: offer, client: ClientAnnouncement(capabilities: [Capability.heartbeat])
    ).get()
    #expect(outcome.allows(Capability.heartbeat) && !outcome.allows(Capability.draining))
    let connected = outcome.connected(sessionId: "s", authVersion: 1, serverProof: nil)
    #expect(Validator().validate(MessageEncoder().encode(ServerMessage.connected(connected))).isValid)
    // The negotiated set drives the encoder's gate.
    let heartbeat = ServerMessage.heartbeat(HeartbeatMessage(timestamp: "2026-01-11T17:25:32Z"))
    #expect(throws: Never.self) { try MessageEncoder().encode(heartbeat, negotiated: outcome.capabilitySet) }
    let draining = ServerMessage.draining(DrainingMessage(message: "bye", retryAfterMs: 5000))
    #expect(throws: ExtensionNotNegotiated.self) {
      try MessageEncoder().encode(draining, negotiated: outcome.capabilitySet)
    }
  }

  @Test func versionsOrderNumerically() {
    #expect(ProtocolVersion("0.10.0")! > ProtocolVersion("0.9.0")!)
    #expect(ProtocolVersion("1.2") == nil && ProtocolVersion("a.b.c") == nil && ProtocolVersion("1..2") == nil)
  }
}
