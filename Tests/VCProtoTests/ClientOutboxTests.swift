import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The outbox (STANDARDS.md#outbox): a request with a request id made while the client
/// is not ready waits, bounded by ``ClientConfiguration/outboxCapacity``, and goes out in order once
/// ready; it fails with a typed reason when the outbox is full, at its timeout, or when the client
/// stops or stops reconnecting. (Issue 30: a request made while reconnecting threw.) Vectors
/// `client.outbox.*` pin the same behaviour for other implementations.
@Suite struct ClientOutboxTests {
  static let recipes = JSONObject.frame("get_available_recipes")
  static let history = JSONObject.frame("get_command_history")

  /// A ready engine (ready at 0, no keepalive in the way) whose connection then dropped at 0: backing
  /// off, the reconnect due at 1,000.
  static func reconnecting(
    timeout: Int64 = 120_000, capacity: Int = 32, maxAttempts: Int? = nil
  ) throws -> ClientEngine {
    var timing = ClientTiming()
    timing.requestTimeoutMs = timeout
    timing.pingIntervalMs = 10_000_000
    timing.jitter = 0
    timing.maxReconnectAttempts = maxAttempts
    var engine = try ClientEngineErrorTests.readyEngine(
      ClientConfiguration(
        apiKey: ClientEngineErrorTests.key, allowAuthV1: true, timing: timing, outboxCapacity: capacity))
    _ = try engine.handle(.transportClosed(engine.currentTransport!, detail: "reset"), now: 0)
    #expect(engine.state == .backingOff)
    return engine
  }

  /// Reconnects `engine` (backing off) at `now`: the reconnect fires, the transport opens, hello and
  /// connected arrive; returns the actions of the `connected`.
  static func reconnect(_ engine: inout ClientEngine, now: Int64) throws -> [ClientAction] {
    _ = try engine.handle(.timerFired(.reconnect), now: now)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: now)
    _ = try engine.handle(
      .frameReceived(.frame("hello", ["message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1])),
      now: now)
    return try engine.handle(
      .frameReceived(
        .frame("connected", ["message": "m", "session_id": .null, "negotiated_protocol_version": "0.5.0"])),
      now: now)
  }

  @Test func requestsMadeWhileReconnectingGoOutInOrderOnceReady() throws {
    var engine = try Self.reconnecting()
    #expect(engine.acceptsRequests)
    #expect(
      try engine.handle(.send(Self.recipes, requestId: "r1"), now: 100) == [.armTimer(.outboxDeadline, at: 120_100)])
    #expect(try engine.handle(.send(Self.history, requestId: "r2"), now: 200).isEmpty)
    #expect(engine.occupancy.outbox == 2)
    // Untracked: no way to report its failure, so it is refused while not ready.
    #expect(throws: IllegalEvent.self) { try engine.handle(.send(Self.history, requestId: nil), now: 300) }
    let connected = try Self.reconnect(&engine, now: 1_000)
    let sent = connected.filter { if case .send = $0 { true } else { false } }
    #expect(sent == [.send(Self.recipes), .send(Self.history)], "in the order the application asked")
    // The request keeps the deadline it got when queued; the outbox timer goes.
    #expect(connected.contains(.armTimer(.requestDeadline, at: 120_100)))
    #expect(connected.contains(.cancelTimer(.outboxDeadline)))
    #expect(engine.occupancy.outbox == 0 && engine.occupancy.pendingRequests == 2)
    let answer = JSONObject.frame("available_recipes", ["recipes": []])
    #expect(
      try engine.handle(.frameReceived(answer), now: 1_100) == [.deliver(.answered(requestId: "r1", frame: answer))])
  }

  @Test func aFullOutboxRefusesTheNextRequest() throws {
    var engine = try Self.reconnecting(capacity: 2)
    _ = try engine.handle(.send(Self.recipes, requestId: "r1"), now: 0)
    _ = try engine.handle(.send(Self.recipes, requestId: "r2"), now: 0)
    #expect(
      try engine.handle(.send(Self.history, requestId: "r3"), now: 0)
        == [.deliver(.requestFailed(requestId: "r3", reason: .outboxFull))])
    #expect(engine.occupancy.outbox == 2)
    let sent = try Self.reconnect(&engine, now: 1_000).filter { if case .send = $0 { true } else { false } }
    #expect(sent == [.send(Self.recipes), .send(Self.recipes)], "the refused request is never sent")
  }

  @Test func aZeroCapacityQueuesNothing() throws {
    var engine = try Self.reconnecting(capacity: -3)
    #expect(
      try engine.handle(.send(Self.recipes, requestId: "r1"), now: 0)
        == [.deliver(.requestFailed(requestId: "r1", reason: .outboxFull))])
  }

  @Test func aQueuedRequestTimesOutWhileTheClientIsStillConnecting() throws {
    var engine = try Self.reconnecting(timeout: 5_000)
    _ = try engine.handle(.send(Self.recipes, requestId: "r1"), now: 0)
    _ = try engine.handle(.timerFired(.reconnect), now: 1_000)
    #expect(engine.state == .connecting)
    _ = try engine.handle(.send(Self.history, requestId: "r2"), now: 4_000)
    #expect(try engine.handle(.timerFired(.outboxDeadline), now: 4_999).isEmpty, "early: ignored")
    #expect(
      try engine.handle(.timerFired(.outboxDeadline), now: 5_000)
        == [.deliver(.requestFailed(requestId: "r1", reason: .timeout)), .armTimer(.outboxDeadline, at: 9_000)])
    #expect(
      try engine.handle(.timerFired(.outboxDeadline), now: 9_000)
        == [.deliver(.requestFailed(requestId: "r2", reason: .timeout))])
    #expect(engine.occupancy.outbox == 0)
  }

  /// The outbox outlives a lost connection: its timer is not among the connection's timers.
  @Test func theOutboxSurvivesAnotherDrop() throws {
    var engine = try Self.reconnecting()
    _ = try engine.handle(.send(Self.recipes, requestId: "r1"), now: 0)
    _ = try engine.handle(.timerFired(.reconnect), now: 1_000)
    let lost = try engine.handle(.transportClosed(engine.currentTransport!, detail: "refused"), now: 2_000)
    #expect(!lost.contains(.cancelTimer(.outboxDeadline)))
    #expect(!lost.contains { if case .deliver(.requestFailed) = $0 { true } else { false } })
    #expect(engine.occupancy.outbox == 1)
  }

  @Test(arguments: [false, true])
  func stoppingFailsEveryQueuedRequest(whileConnecting: Bool) throws {
    var engine = try Self.reconnecting()
    _ = try engine.handle(.send(Self.recipes, requestId: "r1"), now: 0)
    _ = try engine.handle(.send(Self.history, requestId: "r2"), now: 0)
    if whileConnecting { _ = try engine.handle(.timerFired(.reconnect), now: 1_000) }
    let stopped = try engine.handle(.stop(reason: "user"), now: 1_500)
    let failures = stopped.filter { if case .deliver(.requestFailed) = $0 { true } else { false } }
    #expect(
      failures == [
        .deliver(.requestFailed(requestId: "r1", reason: .stopped)),
        .deliver(.requestFailed(requestId: "r2", reason: .stopped)),
      ])
    #expect(stopped.contains(.cancelTimer(.outboxDeadline)))
    #expect(stopped.last == .deliver(.stopped(reason: "user")))
    #expect(engine.occupancy.outbox == 0)
    #expect(!engine.acceptsRequests)
    #expect(throws: IllegalEvent.self) { try engine.handle(.send(Self.recipes, requestId: "r3"), now: 2_000) }
  }

  @Test func givingUpFailsTheQueuedRequests() throws {
    var engine = try Self.reconnecting(maxAttempts: 1)
    _ = try engine.handle(.send(Self.recipes, requestId: "r1"), now: 0)
    _ = try engine.handle(.timerFired(.reconnect), now: 1_000)
    let lost = try engine.handle(.transportClosed(engine.currentTransport!, detail: "refused"), now: 2_000)
    #expect(engine.state == .stopped)
    #expect(
      Array(lost.suffix(3)) == [
        .deliver(.gaveUp(attempts: 1)), .deliver(.requestFailed(requestId: "r1", reason: .notReconnecting)),
        .cancelTimer(.outboxDeadline),
      ])
  }

  /// The handshake's refusals park the client: what it queued fails as well.
  @Test func aRefusedVersionFailsTheQueuedRequests() throws {
    var engine = try Self.reconnecting()
    _ = try engine.handle(.send(Self.recipes, requestId: "r1"), now: 0)
    _ = try engine.handle(.timerFired(.reconnect), now: 1_000)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 1_000)
    let refused = try engine.handle(
      .frameReceived(.frame("hello", ["message": "m", "instructions": "i", "version": "0.1.0", "auth_version": 1])),
      now: 1_100)
    #expect(engine.state == .upgradeRequired)
    #expect(refused.contains(.deliver(.requestFailed(requestId: "r1", reason: .notReconnecting))))
  }
}
