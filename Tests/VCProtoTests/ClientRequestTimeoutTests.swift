import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A request whose answer never comes fails with `timeout` at its deadline (STANDARDS.md#requests),
/// with the timeouts the application configured. The default values are pinned by the
/// session vectors (`client.requests.timeout`).
@Suite struct ClientRequestTimeoutTests {
  static func engine(timeout: Int64, slow: Int64) throws -> ClientEngine {
    var timing = ClientTiming()
    timing.requestTimeoutMs = timeout
    timing.slowRequestTimeoutMs = slow
    timing.pingIntervalMs = 10_000_000  // keepalive out of the way
    return try ClientEngineErrorTests.readyEngine(
      ClientConfiguration(apiKey: ClientEngineErrorTests.key, allowAuthV1: true, timing: timing))
  }

  @Test func configuredTimeoutsFailTheRequestsAtTheirDeadlines() throws {
    var engine = try Self.engine(timeout: 5_000, slow: 50_000)
    let compact = JSONObject.frame("compact_session", ["session_id": "s"])
    let exec = JSONObject.frame("execute_command", ["command_id": "git.status"])
    #expect(
      try engine.handle(.send(compact, requestId: "slow"), now: 1_000)
        == [.send(compact), .armTimer(.requestDeadline, at: 51_000)])
    #expect(
      try engine.handle(.send(exec, requestId: "quick"), now: 2_000)
        == [.send(exec), .armTimer(.requestDeadline, at: 7_000)], "an earlier deadline moves the timer")
    // A coded error refuses nothing (STANDARDS.md#requests): the request keeps waiting.
    let coded = JSONObject.frame("error", ["code": "invalid_subscribe", "message": "bad"])
    #expect(try engine.handle(.frameReceived(coded), now: 3_000) == [.deliver(.received(coded))])
    #expect(try engine.handle(.timerFired(.requestDeadline), now: 6_999).isEmpty, "early fires are ignored")
    #expect(
      try engine.handle(.timerFired(.requestDeadline), now: 7_000)
        == [
          .deliver(.requestFailed(requestId: "quick", reason: .timeout)), .armTimer(.requestDeadline, at: 51_000),
        ])
    #expect(engine.occupancy.pendingRequests == 1)
    #expect(
      try engine.handle(.timerFired(.requestDeadline), now: 51_000)
        == [.deliver(.requestFailed(requestId: "slow", reason: .timeout))])
    #expect(engine.occupancy.pendingRequests == 0)
  }

  /// An untracked request that finds the list full of tracked ones is sent unrecorded: it has no
  /// deadline, so it does not move the timer.
  @Test func anUnrecordedRequestArmsNothing() throws {
    var timing = ClientTiming()
    timing.requestTimeoutMs = 5_000
    timing.slowRequestTimeoutMs = 50_000
    var engine = try ClientEngineErrorTests.readyEngine(
      ClientConfiguration(apiKey: ClientEngineErrorTests.key, allowAuthV1: true, timing: timing, maxPendingRequests: 1))
    let compact = JSONObject.frame("compact_session", ["session_id": "s"])
    #expect(
      try engine.handle(.send(compact, requestId: "r1"), now: 0)
        == [.send(compact), .armTimer(.requestDeadline, at: 50_000)])
    let exec = JSONObject.frame("execute_command", ["command_id": "git.status"])
    #expect(try engine.handle(.send(exec, requestId: nil), now: 1) == [.send(exec)])
    #expect(engine.occupancy.pendingRequests == 1)
  }

  @Test func anAnsweredRequestDoesNotTimeOut() throws {
    var engine = try Self.engine(timeout: 5_000, slow: 50_000)
    _ = try engine.handle(.send(.frame("get_command_history"), requestId: "r1"), now: 0)
    let answer = JSONObject.frame("command_history", ["sessions": [], "limit": 50])
    #expect(
      try engine.handle(.frameReceived(answer), now: 1_000) == [.deliver(.answered(requestId: "r1", frame: answer))])
    #expect(try engine.handle(.timerFired(.requestDeadline), now: 5_000).isEmpty)
  }
}
