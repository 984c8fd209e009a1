import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A 0.4.0 `session_history` whose `gap.reason` is `client_ahead` tells the client to drop what it
/// holds from `next_seq` on and to resume after `next_seq - 1` (STANDARDS.md#subscriptions). A
/// `next_seq` the protocol forbids (seq is 1-based: below 1) is not trusted: no purge, the cursor stays
/// where it was, and nothing traps (issue 29: `next_seq` -9223372036854775808 trapped on `next - 1`).
@Suite struct ClientAheadGapTests {
  static func frame(nextSeq: String) throws -> JSONObject {
    try #require(
      JSONReader().parse(
        #"{"type":"session_history","session_id":"s","messages":[],"first_seq":null,"last_seq":null,"next_seq":\#(nextSeq),"is_complete":true,"gap":{"requested_last_seq":40,"min_available_seq":1,"reason":"client_ahead"}}"#
      ).objectValue)
  }

  static func ready(cursor: SubscriptionCursor?) throws -> ClientEngine {
    var engine = try HostileServerPositionTests.ready("0.4.0")
    _ = try engine.handle(.subscribe(sessionId: "s", cursor: cursor), now: 0)
    return engine
  }

  /// seq is 1-based: a frame with a `next_seq` below 1 fails validation, so it is reported and
  /// never acted on (no purge, the cursor stays where it was).
  @Test(arguments: ["\(Int64.min)", "\(Int64.min + 1)", "-1", "0"])
  func aNextSeqBelowOneIsNotTrusted(nextSeq: String) throws {
    var engine = try Self.ready(cursor: .lastSeq(40))
    let actions = try engine.handle(.frameReceived(try Self.frame(nextSeq: nextSeq)), now: 1)
    #expect(HostileServerPositionTests.updates(actions).isEmpty, "no update from next_seq \(nextSeq)")
    guard case .deliver(.violation(let violation))? = actions.first, actions.count == 1 else {
      Issue.record("expected one violation, got \(actions)")
      return
    }
    #expect(violation.findings.contains { $0.code == .invalidValue && $0.pointer == "/next_seq" })
    #expect(engine.cursor(for: "s") == .lastSeq(40), "the cursor stays where it was")
  }

  @Test(arguments: [("1", 0), ("30", 29), ("\(Int64.max)", Int(Int64.max - 1))])
  func aValidNextSeqPurgesAndMovesTheCursorBack(nextSeq: String, last: Int) throws {
    var engine = try Self.ready(cursor: .lastSeq(40))
    let actions = try engine.handle(.frameReceived(try Self.frame(nextSeq: nextSeq)), now: 1)
    let update = try #require(HostileServerPositionTests.updates(actions).first)
    #expect(update.purge == .from(Int(nextSeq)!))
    // A valid next_seq past the client's position leaves the cursor at the larger of the two.
    #expect(update.cursor == .lastSeq(last))
  }

  /// A negative position from the application is none: the engine asks for the whole history
  /// (`last_seq` 0, `from_offset` 0) instead of sending a position the server refuses.
  @Test(arguments: [
    ("0.4.0", SubscriptionCursor.lastSeq(-5), "last_seq"),
    ("0.5.0", SubscriptionCursor.offset(Int.min, signature: "3:u"), "from_offset"),
  ])
  func aNegativeApplicationCursorIsNone(version: String, cursor: SubscriptionCursor, member: String) throws {
    var engine = try HostileServerPositionTests.ready(version)
    let actions = try engine.handle(.subscribe(sessionId: "t", cursor: cursor), now: 1)
    let sent = actions.compactMap { action -> JSONObject? in
      if case .send(let message) = action, message["type"] == "subscribe" { return message.object }
      return nil
    }
    #expect(sent.count == 1)
    #expect(sent.first?[member] == 0, "\(sent)")
  }
}
