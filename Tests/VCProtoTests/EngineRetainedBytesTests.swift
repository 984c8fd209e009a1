import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// What a hostile peer can make an engine keep. The engines bound their tables by count; these
/// tests hold them to a bound in bytes as well, since a peer chooses each string's length (up to the
/// 16 MiB frame limit). What an engine keeps is measured from the outside: every string reachable
/// from its stored properties (``retainedStringBytes(_:)``, by reflection), so a table added later
/// is counted too. Each bound is one STANDARDS.md#state-machine states:
/// - `ClientEngine`'s `message_ack` replay deduplication keeps each `message_id` as a 64-bit hash
///   (it kept each id's text: 2,048 ids of a server's choosing, 32 GiB at the frame limit).
/// - `ServerEngine` refuses a `subscribe` whose `session_id` is over 256 UTF-8 bytes (it kept
///   each id's text: 1,024 ids of a client's choosing, 16 GiB per connection).
/// - On 0.2.0/0.3.0 the client keeps a cursor (`newest_message_id`) of at most 256 UTF-8 bytes and
///   drops a longer one, so the next `subscribe` asks for the whole history (it kept any length:
///   256 subscriptions, 4 GiB).
@Suite(.tags(.slow), .enabled(if: slowSuitesRun)) struct EngineRetainedBytesTests {
  static let mebibyte = 1 << 20
  /// What 16 ids of 1 MiB may cost at most: far more than 16 hashes or 16 UUIDs, far less than 16 MiB.
  static let allowance = 64 * 1024

  static func object(_ text: String) throws -> JSONObject { try #require(JSONReader().parse(text).objectValue) }

  /// The UTF-8 bytes of every string reachable from `value`'s stored properties, collection elements,
  /// dictionary keys and enum payloads, found by reflection (`Mirror`), not by asking the engine; and
  /// every byte array's bytes (the server engine keeps its subscriptions' ids as bytes).
  static func retainedStringBytes(_ value: Any) -> Int {
    if let string = value as? String { return string.utf8.count }
    if let string = value as? Substring { return string.utf8.count }
    if let bytes = value as? [UInt8] { return bytes.count }
    return Mirror(reflecting: value).children.reduce(0) { $0 + retainedStringBytes($1.value) }
  }

  /// The oracle sees what it must: a string held in a set, a dictionary key and an enum payload, and
  /// the ids a server engine's subscriptions keep as bytes (a record per id: an 8-byte header, then
  /// the id zero-padded to whole words: 24 bytes for a 9-byte id).
  @Test func theOracleCountsNestedStrings() {
    struct Holder {
      var set: Set<String> = ["abc"]
      var table: [String: SubscriptionCursor?] = ["de": .lastMessageId("fghi")]
    }
    #expect(Self.retainedStringBytes(Holder()) == 9)
    var subscriptions = SessionIDSet()
    subscriptions.insert("session-1")
    #expect(Self.retainedStringBytes(subscriptions) == 24)
  }

  @Test func clientKeepsServerMessageIDsInBoundedBytes() throws {
    var engine = ClientEngine(
      ClientConfiguration(apiKey: "k", capabilities: [Capability.messageAck], allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(
      .transportOpened(engine.currentTransport!, clientNonce: String(repeating: "ab", count: 16)), now: 0)
    _ = try engine.handle(
      .frameReceived(
        try Self.object(
          #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i","capabilities":["message_ack"]}"#
        )), now: 0)
    _ = try engine.handle(
      .frameReceived(
        try Self.object(
          #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.5.0","capabilities":["message_ack"]}"#
        )), now: 0)
    #expect(engine.state == .ready && engine.capabilities.contains(Capability.messageAck))
    let before = Self.retainedStringBytes(engine)
    func delivered(_ actions: [ClientAction]) -> Int {
      actions.filter { if case .deliver(.received) = $0 { true } else { false } }.count
    }
    for i in 0..<16 {
      let id = String(repeating: Character(UnicodeScalar(UInt8(65 + i))), count: Self.mebibyte)
      let frame = try Self.object(#"{"type":"ack","message":"m","message_id":"\#(id)"}"#)
      #expect(delivered(try engine.handle(.frameReceived(frame), now: 1)) == 1)
      // The same id again is a replay (STANDARDS.md#extension-rules): acknowledged, not delivered.
      #expect(delivered(try engine.handle(.frameReceived(frame), now: 1)) == 0)
    }
    #expect(engine.occupancy.messageIds == 16)
    let kept = Self.retainedStringBytes(engine) - before
    #expect(kept <= Self.allowance, "\(kept) bytes kept for 16 message_ids")
  }

  @Test func serverRefusesLongSessionIDs() throws {
    var engine = ServerEngine(ServerConfiguration(offer: .realHead, apiKey: "k"))
    _ = try engine.handle(.transportOpened(challenge: nil, connectionId: "c"), now: 0)
    _ = try engine.handle(
      .frameReceived(try Self.object(#"{"type":"connect","api_key":"k","protocol_version":"0.5.0"}"#)), now: 0)
    #expect(engine.state == .authenticated)
    let before = Self.retainedStringBytes(engine)
    // STANDARDS.md#state-machine: a `subscribe` whose session_id is over 256 UTF-8 bytes gets this error frame.
    let refusal = try Self.object(#"{"type":"error","message":"session_id is longer than 256 bytes"}"#)
    for i in 0..<16 {
      let id = String(repeating: Character(UnicodeScalar(UInt8(65 + i))), count: Self.mebibyte)
      let actions = try engine.handle(
        .frameReceived(try Self.object(#"{"type":"subscribe","session_id":"\#(id)","from_offset":0}"#)), now: 1)
      let refused = actions == [.sending(refusal)]  // not in #expect: a failure would print the 1 MiB id
      #expect(refused, "subscribe \(i) was not refused")
    }
    #expect(engine.subscribed.isEmpty)
    let kept = Self.retainedStringBytes(engine) - before
    #expect(kept <= Self.allowance, "\(kept) bytes kept for 16 refused subscriptions")
    // The bound is inclusive, in UTF-8 bytes: 128 two-byte characters pass, one more byte does not.
    let longest = String(repeating: "é", count: 128)
    for (id, accepted) in [(longest, true), (longest + "x", false)] {
      let actions = try engine.handle(
        .frameReceived(try Self.object(#"{"type":"subscribe","session_id":"\#(id)","from_offset":0}"#)), now: 1)
      #expect(
        actions
          == (accepted
            ? [.deliver(.subscribe(sessionId: id, cursor: .offset(0, signature: nil)))] : [.sending(refusal)]))
    }
    #expect(engine.subscribed == [ExactString(longest)] && engine.subscribedCount == 1)
  }

  @Test func clientKeepsCursorsOfBoundedSize() throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(
      .transportOpened(engine.currentTransport!, clientNonce: String(repeating: "ab", count: 16)), now: 0)
    _ = try engine.handle(
      .frameReceived(
        try Self.object(
          #"{"type":"hello","message":"m","version":"0.3.0","auth_version":1,"instructions":"i"}"#)), now: 0)
    _ = try engine.handle(
      .frameReceived(try Self.object(#"{"type":"session_list","sessions":[],"total_count":0}"#)), now: 0)
    #expect(engine.state == .ready)
    let before = Self.retainedStringBytes(engine)
    func history(_ session: String, _ uuid: String) throws -> SessionUpdate? {
      let actions = try engine.handle(
        .frameReceived(
          try Self.object(
            #"{"type":"session_history","session_id":"\#(session)","messages":[{"uuid":"\#(uuid)","role":"user","text":"t","timestamp":null,"provider":"claude"}],"total_count":1,"oldest_message_id":"\#(uuid)","newest_message_id":"\#(uuid)","is_complete":true}"#
          )), now: 1)
      for case .deliver(.sessionUpdate(let update)) in actions { return update }
      return nil
    }
    for i in 0..<16 {
      let session = "s\(i)"
      _ = try engine.handle(.subscribe(sessionId: session, cursor: nil), now: 1)
      let uuid = String(repeating: Character(UnicodeScalar(UInt8(65 + i))), count: Self.mebibyte)
      let update = try #require(try history(session, uuid))
      // Compared outside #expect: a failure would print the 1 MiB id.
      let dropped = update.insertIndices == [0] && update.cursor == nil && engine.cursor(for: session) == nil
      #expect(dropped, "session \(i) kept a 1 MiB cursor")
    }
    let kept = Self.retainedStringBytes(engine) - before
    #expect(kept <= Self.allowance, "\(kept) bytes kept for 16 cursors")
    // With no cursor the next subscribe asks for the whole history (no last_message_id).
    let resubscribe = try engine.handle(.subscribe(sessionId: "s0", cursor: nil), now: 2)
    #expect(resubscribe == [.send(try Self.object(#"{"type":"subscribe","session_id":"s0"}"#))])
    // The cap is inclusive, in UTF-8 bytes: a 256-byte id is the cursor, a 257-byte one is not.
    let longest = String(repeating: "é", count: 128)
    _ = try engine.handle(.subscribe(sessionId: "edge", cursor: nil), now: 3)
    #expect(try history("edge", longest)?.cursor == .lastMessageId(longest))
    #expect(try history("edge", longest + "x")?.cursor == nil)
  }

  /// `vcproto validate` follows subscriptions with a client engine: on 0.2.0/0.3.0 it must not let
  /// the capture's long message ids become the engine's cursors (memory grew about 4 MB per session
  /// subscribed with a 4 MB `newest_message_id`; it stays flat now).
  @Test func observerFollowsNoLongCursor() throws {
    var observer = ConversationObserver(fallbackVersion: .v0_2_0)
    func feed(_ direction: MessageDirection, _ text: String) throws -> [String] {
      observer.observe(.init(direction: direction, message: try Self.object(text))).map(\.code.rawValue)
    }
    _ = try feed(
      .serverToClient, #"{"type":"hello","message":"m","version":"0.3.0","auth_version":1,"instructions":"i"}"#)
    _ = try feed(.clientToServer, #"{"type":"connect","api_key":"k"}"#)
    _ = try feed(.serverToClient, #"{"type":"session_list","sessions":[],"total_count":0}"#)
    var kept = 0
    for i in 0..<16 {
      let session = "s\(i)"
      let uuid = String(repeating: Character(UnicodeScalar(UInt8(65 + i))), count: Self.mebibyte)
      #expect(try feed(.clientToServer, #"{"type":"subscribe","session_id":"\#(session)"}"#).isEmpty)
      let codes = try feed(
        .serverToClient,
        #"{"type":"session_history","session_id":"\#(session)","messages":[{"uuid":"\#(uuid)","role":"user","text":"t","timestamp":null,"provider":"claude"}],"total_count":1,"oldest_message_id":"\#(uuid)","newest_message_id":"\#(uuid)","is_complete":true}"#
      )
      #expect(codes.isEmpty)
      if case .lastMessageId(let last)? = observer.sessions?.cursor(for: session) { kept += last.utf8.count }
    }
    #expect(kept <= Self.allowance, "\(kept) bytes kept for 16 cursors")
    // Short ids are still followed.
    _ = try feed(.clientToServer, #"{"type":"subscribe","session_id":"short"}"#)
    _ = try feed(
      .serverToClient,
      #"{"type":"session_history","session_id":"short","messages":[{"uuid":"u-1","role":"user","text":"t","timestamp":null,"provider":"claude"}],"total_count":1,"oldest_message_id":"u-1","newest_message_id":"u-1","is_complete":true}"#
    )
    #expect(observer.sessions?.cursor(for: "short") == .lastMessageId("u-1"))
  }
}
