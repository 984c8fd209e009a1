import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A hostile or broken server feeding a ready 0.5.0/0.4.0 client engine positions at the edges of
/// `Int64` (the window's own empty marker `Int64.min` among them), repeated positions inside one
/// frame and positions of the wrong JSON type: no crash, each position delivered at most once
/// (STANDARDS.md#subscriptions: a position already delivered is a replace, a new one an
/// insert), and a frame with a position the protocol forbids reported as a violation, never acted on.
@Suite struct HostileServerPositionTests {
  static func ready(_ version: String) throws -> ClientEngine {
    var engine = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true, dedupWindow: 8))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(
      .transportOpened(engine.currentTransport!, clientNonce: String(repeating: "ab", count: 16)), now: 0)
    _ = try engine.handle(
      .frameReceived(
        try #require(
          JSONReader().parse(
            #"{"type":"hello","message":"m","version":"\#(version)","auth_version":1,"instructions":"i"}"#
          ).objectValue)), now: 0)
    _ = try engine.handle(
      .frameReceived(
        try #require(
          JSONReader().parse(
            #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"\#(version)"}"#
          ).objectValue)), now: 0)
    #expect(engine.state == .ready)
    _ = try engine.handle(.subscribe(sessionId: "s", cursor: nil), now: 0)
    return engine
  }

  static func updates(_ actions: [ClientAction]) -> [SessionUpdate] {
    actions.compactMap {
      if case .deliver(.sessionUpdate(let update)) = $0 { return update }
      return nil
    }
  }

  @Test(arguments: ["0.4.0", "0.5.0"])
  func edgePositionsAreDeliveredOnceAndNeverCrash(version: String) throws {
    var engine = try Self.ready(version)
    let key = version == "0.4.0" ? "seq" : "offset"
    let low = version == "0.4.0" ? "1" : "0"  // the lowest position: seq is 1-based
    func frame(_ positions: [String]) throws -> JSONObject {
      let messages = positions.map {
        #"{"session_id":"s","\#(key)":\#($0),"uuid":"u","role":"user","text":"t","timestamp":null,"provider":"claude"}"#
      }
      let envelope =
        version == "0.4.0"
        ? #""first_seq":1,"last_seq":\#(Int64.max),"next_seq":\#(Int64.max),"is_complete":true,"gap":null"#
        : #""next_offset":\#(Int64.max),"end_of_file":true,"file_signature":"1:u""#
      return try #require(
        JSONReader().parse(
          #"{"type":"session_history","session_id":"s","messages":[\#(messages.joined(separator: ","))],\#(envelope)}"#
        ).objectValue)
    }
    // Positions the protocol forbids (negative, not integers, out of range): the frame fails
    // validation, is reported and changes nothing (STANDARDS.md#subscriptions: never trusted).
    for hostile in ["\(Int64.min)", "-1", "1e400", "\"7\"", "7.5", "null", version == "0.4.0" ? "0" : "-2"] {
      let actions = try engine.handle(.frameReceived(try frame([low, hostile])), now: 0)
      #expect(Self.updates(actions).isEmpty, "\(hostile)")
      guard case .deliver(.violation(let violation))? = actions.first, actions.count == 1 else {
        Issue.record("\(hostile): expected one violation, got \(actions)")
        continue
      }
      #expect(violation.findings.contains { $0.pointer == "/messages/1/\(key)" }, "\(hostile)")
    }
    let edges = try frame(["\(Int64.max)", low, "\(Int64.max)"])
    for round in 0..<3 {
      let updates = Self.updates(try engine.handle(.frameReceived(edges), now: Int64(round)))
      #expect(updates.count == 1)
      guard let update = updates.first else { continue }
      // Two positions at the edges, Int64.max and the lowest, each inserted once in the first round; a
      // position seen again (the repeat of Int64.max inside the frame, and all in later rounds) is a
      // replacement.
      #expect(update.insertIndices.count == (round == 0 ? 2 : 0), "round \(round)")
      #expect(update.replaceIndices.count == (round == 0 ? 1 : 3), "round \(round)")
      #expect(update.dropped == 0, "round \(round): \(update.dropped)")
    }
  }

}
