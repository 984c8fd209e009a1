import Foundation
import Testing

@testable import VCProtoCLI
@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON
@testable import VCProtoTestSupport

/// The connection engines: the conversation vectors, random event sequences under the invariants,
/// and the bounds and helpers the vectors cannot reach.
@Suite struct ConnectionEngineTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let key = "untethered-0123456789abcdef0123456789abcdef"

  static func vectors(_ file: String) -> [JSONValue] {
    let url = root.appendingPathComponent("Vectors/sessions/\(file)")
    guard let data = FileManager.default.contents(atPath: url.path),
      case .array(let list)? = try? JSONReader(limits: VectorsCommand.vectorFileLimits).parse([UInt8](data))
    else { return [] }
    return list
  }

  @Test(arguments: ["client.json", "server.json"]) func conversationVectors(_ file: String) {
    let list = Self.vectors(file)
    #expect(list.count >= 20, "\(file) has \(list.count) vectors")
    for vector in list {
      let id = vector["id"]?.stringValue ?? "?"
      let (passed, why) = VectorsCommand.verdict(ConformanceTestCase(name: id, kind: "sessions", vector: vector))
      #expect(passed, "\(id): \(why)")
    }
  }

  /// The vectors cover every version on both sides and every real-system bug the issue names.
  @Test func vectorsCoverVersionsAndBugs() {
    let ids = (Self.vectors("client.json") + Self.vectors("server.json")).compactMap { $0["id"]?.stringValue }
    for version in ["0.2.0", "0.3.0", "0.4.0", "0.5.0"] {
      #expect(ids.contains { $0.hasPrefix("client.\(version)") }, "no client vector for \(version)")
      #expect(ids.contains { $0.hasPrefix("server.\(version)") }, "no server vector for \(version)")
    }
    for bug in [
      "pre_auth_send", "pending_request_fails_on_drop", "session_ready_lost", "auth_error_keeps_reconnecting",
      "signature_growth", "error_refuses_request",
    ] {
      #expect(ids.contains { $0.contains("bug.\(bug)") }, "no vector for \(bug)")
    }
  }

  /// A deterministic byte stream (xorshift) standing in for a fuzzer's input.
  static func bytes(seed: UInt64, count: Int) -> [UInt8] {
    var x = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    return (0..<count).map { _ in
      x ^= x << 13
      x ^= x >> 7
      x ^= x << 17
      return UInt8(truncatingIfNeeded: x >> 32)
    }
  }

  @Test func randomClientSequencesKeepTheInvariants() {
    var events = 0
    for seed in 1...300 {
      var exerciser = EngineExerciser(bytes: Self.bytes(seed: UInt64(seed), count: 1_500))
      let problem = exerciser.runClient()
      #expect(problem == nil, "seed \(seed): \(problem ?? "")")
      events += exerciser.events
    }
    #expect(events > 10_000)
  }

  @Test func randomServerSequencesKeepTheInvariants() {
    var events = 0
    for seed in 1...300 {
      var exerciser = EngineExerciser(bytes: Self.bytes(seed: UInt64(seed) + 1_000, count: 1_500))
      let problem = exerciser.runServer()
      #expect(problem == nil, "seed \(seed): \(problem ?? "")")
      events += exerciser.events
    }
    #expect(events > 10_000)
  }

  @Test func everyStateHasATableRowAndStopIsAlwaysLegal() {
    for state in ClientState.allCases {
      #expect(ClientTransitions.targets(from: state, on: "stop") == [.stopped])
      #expect(ClientTransitions.targets(from: state, on: "frame") != nil || state == .idle || state == .connecting)
    }
    for state in ServerState.allCases {
      #expect(ServerTransitions.targets(from: state, on: "close") == [.closed])
    }
    #expect(ServerTransitions.targets(from: .awaitingConnect, on: "send") == nil)
  }

  @Test func anIllegalEventNamesStateAndEventAndChangesNothing() throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true))
    #expect(throws: IllegalEvent(state: "idle", event: "send", reason: "not in the transition table")) {
      _ = try engine.handle(.send(.frame("prompt"), requestId: "r1"), now: 0)
    }
    #expect(engine.state == .idle)
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    // Not ready: only a request with a request id waits in the outbox.
    #expect(throws: IllegalEvent.self) { _ = try engine.handle(.send(.frame("prompt"), requestId: nil), now: 0) }
    #expect(engine.state == .awaitingHello && engine.occupancy.outbox == 0)
  }

  @Test func heartbeatTimestampsAreRFC3339UTC() {
    // Expected values from Python's datetime.
    #expect(RFC3339.string(millisecondsSince1970: 0) == "1970-01-01T00:00:00Z")
    #expect(RFC3339.string(millisecondsSince1970: 951_782_400_000) == "2000-02-29T00:00:00Z")
    #expect(RFC3339.string(millisecondsSince1970: 1_768_150_045_999) == "2026-01-11T16:47:25Z")
    #expect(RFC3339.string(millisecondsSince1970: 4_102_444_799_000) == "2099-12-31T23:59:59Z")
  }

  @Test func fileSignatureGrowthIsNotReplacement() {
    #expect(!FileSignature.isReplacement(seen: "100:u-1", current: "100:u-1"))
    #expect(!FileSignature.isReplacement(seen: "100:u-1", current: "250:u-1"))
    #expect(FileSignature.isReplacement(seen: "100:u-1", current: "99:u-1"))
    #expect(FileSignature.isReplacement(seen: "100:u-1", current: "250:u-2"))
    #expect(FileSignature.isReplacement(seen: "opaque", current: "other"))
    #expect(!FileSignature.isReplacement(seen: "3:a:b", current: "9:a:b"))
    // Exact scalars, not canonical equivalence: a differently spelled first record is another file.
    #expect(FileSignature.isReplacement(seen: "12:e\u{301}", current: "12:\u{e9}"))
    #expect(FileSignature.isReplacement(seen: "e\u{301}", current: "\u{e9}"))
  }

  /// Every reconnect delay, over many attempts and seeds, lies within [floor, cap * (1 + jitter)].
  @Test func backoffStaysWithinItsBounds() throws {
    for seed in UInt64(0)..<20 {
      var engine = ClientEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true, randomSeed: seed))
      var now: Int64 = 0
      _ = try engine.handle(.start, now: now)
      var previous: Int64 = 0
      for attempt in 1...40 {
        let actions = try engine.handle(.transportClosed(engine.currentTransport!, detail: "refused"), now: now)
        guard
          case .armTimer(.reconnect, let at)? = actions.first(where: {
            if case .armTimer = $0 { return true } else { return false }
          })
        else {
          Issue.record("no reconnect timer on attempt \(attempt)")
          return
        }
        let delay = at - now
        #expect(delay >= 1_000 && delay <= 37_500, "attempt \(attempt): \(delay) ms")
        if attempt >= 7 { #expect(delay >= 22_500, "attempt \(attempt) is past the cap: \(delay) ms") }
        previous = delay
        now = at
        _ = try engine.handle(.timerFired(.reconnect), now: now)
      }
      _ = previous
    }
  }

  func readyServer(_ capabilities: [String]) throws -> ServerEngine {
    var server = ServerEngine(
      ServerConfiguration(offer: ServerOffer(protocolVersions: ["0.5.0"], capabilities: capabilities), apiKey: Self.key)
    )
    _ = try server.handle(.transportOpened(challenge: nil), now: 0)
    var connect = JSONObject.frame("connect", ["api_key": .string(Self.key), "protocol_version": "0.5.0"])
    connect["capabilities"] = .array(capabilities.map { .string($0) })
    _ = try server.handle(.frameReceived(connect), now: 0)
    #expect(server.state == .authenticated)
    return server
  }

  @Test func replayBufferIsBoundedAndReportsEvictions() throws {
    var server = try readyServer([Capability.messageAck])
    var evicted: [String] = []
    for i in 0...ServerMemory.replayCapacity {
      for case .deliver(.replayEvicted(let id)) in try server.handle(
        .sendFrame(.frame("response", ["message_id": .string("m\(i)"), "success": true])), now: 0)
      {
        evicted.append(id)
      }
    }
    #expect(evicted == ["m0"])
    #expect(server.memory.unacknowledged.count == ServerMemory.replayCapacity)
    #expect(server.memory.unacknowledged.first?.messageId == "m1")
  }

  /// The replay buffer is bounded by bytes as well as by count (STANDARDS.md#extension-rules): a frame
  /// costs the UTF-8 bytes of its `message_id`, text and `session_id`; the oldest go first, and a frame
  /// over the whole budget is sent but never kept, so its ack is unknown and it is not replayed.
  @Test func replayBufferIsBoundedByBytes() throws {
    var server = ServerEngine(
      ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.5.0"], capabilities: [Capability.messageAck]), apiKey: Self.key,
        replayBufferBytes: 100))
    _ = try server.handle(.transportOpened(challenge: nil), now: 0)
    var connect = JSONObject.frame("connect", ["api_key": .string(Self.key), "protocol_version": "0.5.0"])
    connect["capabilities"] = [.string(Capability.messageAck)]
    _ = try server.handle(.frameReceived(connect), now: 0)
    func send(_ id: String, textBytes: Int) throws -> (sent: Bool, evicted: [String]) {
      var sent = false
      var evicted: [String] = []
      let frame = JSONObject.frame(
        "response",
        ["message_id": .string(id), "success": true, "text": .string(String(repeating: "x", count: textBytes))])
      for action in try server.handle(.sendFrame(frame), now: 0) {
        if action == .sending(frame) { sent = true }
        if case .deliver(.replayEvicted(let dropped)) = action { evicted.append(dropped) }
      }
      return (sent, evicted)
    }
    // "a1" + 38 bytes = 40 each: two fit in 100 bytes, a third (120) drops the oldest.
    #expect(try send("a1", textBytes: 38) == (true, []))
    #expect(try send("a2", textBytes: 38) == (true, []))
    #expect(try send("a3", textBytes: 38) == (true, ["a1"]))
    #expect(server.memory.unacknowledged.map(\.messageId) == ["a2", "a3"])
    #expect(server.memory.replayBytes == 80)
    // 2 + 98 = 100 bytes: exactly the budget, so everything older goes, oldest first.
    #expect(try send("b1", textBytes: 98) == (true, ["a2", "a3"]))
    #expect(server.memory.replayBytes == 100)
    // 2 + 99 = 101 bytes, over the whole budget: sent, reported, not kept; what was kept stays.
    #expect(try send("c1", textBytes: 99) == (true, ["c1"]))
    #expect(server.memory.unacknowledged.map(\.messageId) == ["b1"])
    let ack = try server.handle(.frameReceived(.frame("message_ack", ["message_id": "c1"])), now: 0)
    #expect(ack == [.deliver(.unknownAcknowledgement(messageId: "c1"))])
    _ = try server.handle(.frameReceived(.frame("message_ack", ["message_id": "b1"])), now: 0)
    #expect(server.memory.unacknowledged.isEmpty)
    #expect(server.memory.replayBytes == 0)
  }

  @Test func replayBufferDefaultsToFourMebibytes() {
    let configuration = ServerConfiguration(offer: ServerOffer(protocolVersions: ["0.5.0"]), apiKey: Self.key)
    #expect(configuration.replayBufferBytes == 4_194_304)
  }

  /// The server engine refuses exactly what the catalog (the extension table of STANDARDS.md#extensions)
  /// puts behind a capability: the `heartbeat` and `draining` messages and the `message_id` member of
  /// `error`; `replay` is a documented message of every version (the `message_ack` extension only gives
  /// it a meaning), so it is not refused.
  @Test func serverGatesFramesAsTheCatalogDoes() throws {
    let gated: [(JSONObject, String)] = [
      (.frame("heartbeat", ["timestamp": "2026-01-01T00:00:00Z"]), Capability.heartbeat),
      (.frame("draining", ["retry_after_ms": 1_000, "message": "m"]), Capability.draining),
      (.frame("error", ["message": "m", "message_id": "6c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"]), Capability.messageAck),
    ]
    for (frame, capability) in gated {
      var without = try readyServer([])
      #expect(throws: IllegalEvent.self, "\(frame) without \(capability)") {
        try without.handle(.sendFrame(frame), now: 0)
      }
      var with = try readyServer([capability])
      #expect(try with.handle(.sendFrame(frame), now: 0).contains(.sending(frame)))
    }
    var server = try readyServer([])
    for frame: JSONObject in [
      .frame("replay", ["message_id": "m1", "message": ["role": "assistant", "text": "t"]]),
      .frame("error", ["message": "m", "message_id": nil]),
    ] {
      #expect(try server.handle(.sendFrame(frame), now: 0) == [.sending(frame)])
    }
  }

  @Test func idempotencyWindowIsBounded() throws {
    var server = try readyServer([Capability.idempotentPrompt])
    func prompt(_ key: String) throws -> [ServerAction] {
      try server.handle(.frameReceived(.frame("prompt", ["text": "go", "idempotency_key": .string(key)])), now: 0)
    }
    for i in 0...ServerMemory.idempotencyCapacity { _ = try prompt("k\(i)") }
    #expect(server.memory.idempotencyKeyCount == ServerMemory.idempotencyCapacity)
    // The newest key is still answered from the window; the oldest was forgotten and runs again.
    #expect(
      try prompt("k\(ServerMemory.idempotencyCapacity)").contains(.deliver(.duplicatePrompt(idempotencyKey: "k1024"))))
    #expect(
      try prompt("k0").contains(.deliver(.request(.typed(.frame("prompt", ["text": "go", "idempotency_key": "k0"]))))))
    // A key longer than the bound is never remembered (memory per key is bounded).
    let long = String(repeating: "x", count: ServerMemory.maxKeyBytes + 1)
    _ = try prompt(long)
    #expect(try prompt(long).contains { if case .deliver(.request) = $0 { return true } else { return false } })
  }

  /// A 0.5.0 client keeps each session's last `file_signature` in fixed size, however long the
  /// server makes it, and still tells a grown file from a replaced one (STANDARDS.md#subscriptions:
  /// the first-record part differs or the length shrank).
  @Test func fileSignatureIsKeptAsADigest() throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    _ = try engine.handle(
      .frameReceived(.frame("hello", ["message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1])),
      now: 0)
    _ = try engine.handle(
      .frameReceived(
        .frame("connected", ["message": "m", "session_id": .null, "negotiated_protocol_version": "0.5.0"])), now: 0)
    _ = try engine.handle(.subscribe(sessionId: "s", cursor: nil), now: 0)
    let first = String(repeating: "a", count: 1 << 20)
    func history(_ signature: String, next: Int) throws -> SessionUpdate? {
      let frame = JSONObject.frame(
        "session_history",
        [
          "session_id": "s", "messages": [.object(.message5(JSONValue(integerLiteral: next - 1)))],
          "next_offset": JSONValue(integerLiteral: next), "end_of_file": true, "file_signature": .string(signature),
        ])
      for case .deliver(.sessionUpdate(let update)) in try engine.handle(.frameReceived(frame), now: 0) {
        return update
      }
      return nil
    }
    let opened = try history("100:" + first, next: 10)
    #expect(opened?.cursor == .offset(10, signature: "100:" + first))
    #expect(engine.cursor(for: "s") == .offset(10, signature: nil), "the 1 MiB signature is not kept")
    // Grown: same first record, longer file. Not a replacement.
    let grown = try history("200:" + first, next: 20)
    #expect(grown?.purge == nil && grown?.insert.count == 1)
    // The first record differs in its last byte: replaced, reload from 0.
    let replaced = try history("200:" + first.dropLast() + "b", next: 30)
    #expect(replaced?.purge == .all && replaced?.cursor == .offset(0, signature: "200:" + first.dropLast() + "b"))
    // Shrunk: replaced as well.
    _ = try history("200:" + first, next: 10)
    let shrunk = try history("150:" + first, next: 10)
    #expect(shrunk?.purge == .all)
  }

  /// After a reconnect the `subscribe` frames go out in the order the application subscribed, with
  /// unsubscribed sessions left out and a session subscribed again placed last.
  @Test func resubscribeFollowsTheOrderOfSubscribing() throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true))
    func connect(at now: Int64) throws -> [String] {
      _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: now)
      _ = try engine.handle(
        .frameReceived(.frame("hello", ["message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1])),
        now: now)
      let actions = try engine.handle(
        .frameReceived(
          .frame("connected", ["message": "m", "session_id": .null, "negotiated_protocol_version": "0.5.0"])), now: now)
      return actions.compactMap { action in
        guard case .send(let frame) = action, frame["type"]?.stringValue == "subscribe" else { return nil }
        return frame["session_id"]?.stringValue
      }
    }
    for id in ["c", "a", "e", "b"] { _ = try engine.handle(.subscribe(sessionId: id, cursor: nil), now: 0) }
    _ = try engine.handle(.start, now: 0)
    #expect(try connect(at: 0) == ["c", "a", "e", "b"])
    _ = try engine.handle(.unsubscribe(sessionId: "a"), now: 1)
    _ = try engine.handle(.subscribe(sessionId: "d", cursor: nil), now: 1)
    _ = try engine.handle(.subscribe(sessionId: "a", cursor: nil), now: 1)
    // Subscribing again to a subscribed session keeps its place.
    _ = try engine.handle(.subscribe(sessionId: "e", cursor: nil), now: 1)
    let closed = try engine.handle(.transportClosed(engine.currentTransport!, detail: "reset"), now: 2)
    guard case .armTimer(.reconnect, let at)? = closed.first(where: { if case .armTimer = $0 { true } else { false } })
    else {
      Issue.record("no reconnect timer")
      return
    }
    _ = try engine.handle(.timerFired(.reconnect), now: at)
    #expect(try connect(at: at) == ["c", "e", "b", "d", "a"])
    #expect(engine.occupancy.subscriptions == 5)
  }

  /// At ``ClientConfiguration/maxSubscriptions`` a new session is not subscribed, while one already
  /// held still takes the application's cursor and is asked for again.
  @Test func atTheSubscriptionCapOnlyHeldSessionsResume() throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true, maxSubscriptions: 2))
    for id in ["a", "b"] { _ = try engine.handle(.subscribe(sessionId: id, cursor: nil), now: 0) }
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    _ = try engine.handle(
      .frameReceived(.frame("hello", ["message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1])),
      now: 0)
    _ = try engine.handle(
      .frameReceived(
        .frame("connected", ["message": "m", "session_id": .null, "negotiated_protocol_version": "0.5.0"])), now: 0)
    #expect(try engine.handle(.subscribe(sessionId: "c", cursor: nil), now: 1).isEmpty)
    #expect(engine.occupancy.subscriptions == 2 && engine.cursor(for: "c") == nil)
    let again = try engine.handle(.subscribe(sessionId: "a", cursor: .offset(7, signature: nil)), now: 1)
    #expect(
      again == [.send(.frame("subscribe", ["session_id": "a", "from_offset": JSONValue(integerLiteral: 7)]))])
    #expect(engine.cursor(for: "a") == .offset(7, signature: nil))
  }

  /// A 0.2.0/0.3.0 connection whose subscription still holds an offset cursor (the application's, from
  /// a 0.5.0 connection) reports that cursor with the frame's `file_signature`, as on 0.5.0 (found by
  /// `tools/crosscheck_sessions.py`, conversation client.random.263).
  @Test func offsetCursorOnAMessageIdConnectionCarriesTheFrameSignature() throws {
    var engine = ClientEngine(
      ClientConfiguration(apiKey: Self.key, maximumVersion: .v0_3_0, allowAuthV1: true))
    _ = try engine.handle(.subscribe(sessionId: "s", cursor: .offset(0, signature: nil)), now: 0)
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    _ = try engine.handle(
      .frameReceived(.frame("hello", ["message": "m", "instructions": "i", "version": "0.3.0", "auth_version": 1])),
      now: 0)
    let history = JSONObject.frame(
      "session_history",
      [
        "session_id": "s", "messages": [], "total_count": 0, "oldest_message_id": .null,
        "newest_message_id": .null, "is_complete": true, "file_signature": "50:u-0",
      ])
    let updates = try engine.handle(.frameReceived(history), now: 0).compactMap { action -> SessionUpdate? in
      if case .deliver(.sessionUpdate(let update)) = action { return update }
      return nil
    }
    #expect(updates.map(\.cursor) == [.offset(0, signature: "50:u-0")])
  }

  /// The digest decides exactly as the string comparison does (``FileSignature/isReplacement``).
  @Test func signatureDigestAgreesWithTheStrings() {
    let samples = [
      "48213:1f0e2d3c", "48213:1f0e2d3d", "50000:1f0e2d3c", "100:1f0e2d3c", "x:1f0e2d3c", "no colon", "", ":",
      "-1:u", "10:", "10:u:v", "5:" + String(repeating: "u", count: 40), "5:" + String(repeating: "u", count: 41),
      "6:" + String(repeating: "u", count: 41), "5:" + String(repeating: "v", count: 41),
      String(repeating: "w", count: 40),
      String(repeating: "w", count: 41), "12:\u{301}x", "12:\u{e9}", "+5:u", "5:u\u{0}",
      "12:e\u{301}", "12:x\u{e9}", "e\u{301}", "\u{e9}",
    ]
    for seen in samples {
      for current in samples {
        #expect(
          SignatureDigest(seen).isReplaced(by: SignatureDigest(current))
            == FileSignature.isReplacement(seen: seen, current: current), "\(seen) -> \(current)")
      }
    }
  }

  /// The in-line digest of the real server's form (`<digits>:<uuid>`, ``SignatureDigest/init(_:)``) is
  /// the digest the general split gives (``SignatureDigest/splitting(_:)``), at every edge of that
  /// form: digit counts around eighteen, leading zeros, a sign, no digit, an empty or long rest, a
  /// non-ASCII byte after the colon, a second colon.
  @Test func commonFormDigestIsTheSplitDigest() {
    let rest40 = String(repeating: "u", count: 40)
    let samples = [
      "48213:1f0e2d3c-aaaa-4bbb-8ccc-0123456789ab", "0:u", "007:u", "5:", "5::", "5:u:v", ":u", "+5:u", "-5:u",
      "5:" + rest40, "5:" + rest40 + "u", "5:\u{e9}", "5:\u{301}", "5:u\u{e9}", "5 :u", "5a:u", "\u{e9}5:u",
      String(repeating: "9", count: 17) + ":u", String(repeating: "9", count: 18) + ":u",
      String(repeating: "9", count: 19) + ":u", String(repeating: "1", count: 19) + ":u",
      String(repeating: "0", count: 25) + "7:u", "99999999999999999999:u", "12345", "", ":",
    ]
    for signature in samples {
      #expect(SignatureDigest(signature) == SignatureDigest.splitting(signature), "\(signature)")
    }
    #expect(SignatureDigest("007:u") == SignatureDigest("7:u"))
    #expect(SignatureDigest("8:u").isReplaced(by: SignatureDigest("7:u")))
    #expect(!SignatureDigest("7:u").isReplaced(by: SignatureDigest("8:u")))
  }

  /// A `hello` list longer than the handshake-list cap (64, STANDARDS.md#negotiation-and-auth) is refused before
  /// it is read: the client closes without sending `connect` and backs off; 64 entries are fine.
  @Test func overlongHelloListsAreRefused() throws {
    func answer(_ member: String, _ count: Int) throws -> [ClientAction] {
      var engine = ClientEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true))
      _ = try engine.handle(.start, now: 0)
      _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
      var hello = JSONObject.frame(
        "hello",
        [
          "message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1,
          "protocol_versions": ["0.4.0", "0.5.0"], "auth_versions": [1],
        ])
      let filler: JSONValue = member == "auth_versions" ? 1 : "0.5.0"
      hello[member] = .array(Array(repeating: filler, count: count))
      let actions = try engine.handle(.frameReceived(hello), now: 0)
      #expect(engine.state == (count > 64 ? .backingOff : .awaitingConnected), "\(member) × \(count)")
      return actions
    }
    for member in ["protocol_versions", "auth_versions", "capabilities"] {
      let refused = try answer(member, 65)
      #expect(
        refused.contains {
          if case .closeTransport(_, let reason) = $0 {
            return reason.code == "protocol_violation"
          } else {
            return false
          }
        })
      #expect(!refused.contains { if case .send = $0 { return true } else { return false } }, "no connect")
      #expect(try answer(member, 64).contains { if case .send = $0 { return true } else { return false } })
    }
  }

  @Test func dedupWindowIsBounded() throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true, dedupWindow: 16))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    _ = try engine.handle(
      .frameReceived(.frame("hello", ["message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1])),
      now: 0)
    _ = try engine.handle(
      .frameReceived(
        .frame("connected", ["message": "m", "session_id": .null, "negotiated_protocol_version": "0.5.0"])), now: 0)
    _ = try engine.handle(.subscribe(sessionId: "s", cursor: nil), now: 0)
    let messages: [JSONValue] = (0..<100).map { .object(.message5(JSONValue(integerLiteral: $0))) }
    let actions = try engine.handle(
      .frameReceived(
        .frame(
          "session_history",
          [
            "session_id": "s", "messages": .array(messages), "next_offset": 100, "end_of_file": true,
            "file_signature": "9:u",
          ])),
      now: 0)
    #expect(engine.occupancy.largestDedupWindow == 16)
    guard case .deliver(.sessionUpdate(let update))? = actions.last else {
      Issue.record("no session update")
      return
    }
    #expect(update.insert.count == 100 && update.replace.isEmpty)
    // The engine keeps a digest of the signature, not its text; the update carries the frame's own.
    #expect(engine.cursor(for: "s") == .offset(100, signature: nil))
    #expect(update.cursor == .offset(100, signature: "9:u"))
  }
}
