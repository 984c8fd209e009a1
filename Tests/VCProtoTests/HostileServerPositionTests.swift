import Testing

@testable import VCProto

/// A hostile or broken server feeding a ready 0.5.0/0.4.0 client engine positions at the edges of
/// `Int64` (the window's own empty marker `Int64.min` among them), repeated positions inside one
/// frame and positions of the wrong JSON type: no crash, each position delivered at most once, and
/// the rest counted as dropped (STANDARDS.md section 15 rule 7: a position already delivered is a
/// replace, a new one an insert; messages without a position, or with a negative one, are dropped
/// and counted).
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
    let positions = [
      "\(Int64.min)", "\(Int64.max)", "-1", "0", "\(Int64.min)", "\(Int64.max)", "1e400", "\"7\"", "7.5", "null",
    ]
    let messages = positions.map {
      #"{"session_id":"s","\#(key)":\#($0),"uuid":"u","role":"user","text":"t","timestamp":null,"provider":"claude"}"#
    }
    let envelope =
      version == "0.4.0"
      ? #""first_seq":1,"last_seq":\#(Int64.max),"next_seq":\#(Int64.max),"is_complete":true,"gap":null"#
      : #""next_offset":\#(Int64.max),"end_of_file":true,"file_signature":"1:u""#
    let frame = try #require(
      JSONReader().parse(
        #"{"type":"session_history","session_id":"s","messages":[\#(messages.joined(separator: ","))],\#(envelope)}"#
      ).objectValue)
    for round in 0..<3 {
      let updates = Self.updates(try engine.handle(.frameReceived(frame), now: Int64(round)))
      #expect(updates.count == 1)
      guard let update = updates.first else { continue }
      // Two usable positions: Int64.max and 0, each inserted once in the first round; a position seen
      // again (the repeat of Int64.max inside the frame, and both in later rounds) is a replacement.
      // A negative position (Int64.min twice, -1) is never trusted (STANDARDS.md section 15 rule 7):
      // dropped with 1e400, "7", 7.5 and null, which are no positions.
      #expect(update.insertIndices.count == (round == 0 ? 2 : 0), "round \(round)")
      #expect(update.replaceIndices.count == (round == 0 ? 1 : 3), "round \(round)")
      #expect(update.dropped == 7, "round \(round): \(update.dropped)")
    }
  }
}
