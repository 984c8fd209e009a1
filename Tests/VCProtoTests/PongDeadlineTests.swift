import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The pong deadline belongs to the oldest unanswered `ping`: a later ping never pushes it back, so
/// a dead peer is detected within ``ClientTiming/pongTimeoutMs`` of the first unanswered ping
/// whatever the ping interval (issue 30: with `pongTimeoutMs >= pingIntervalMs` each ping re-armed
/// the deadline and a dead peer was never detected).
@Suite struct PongDeadlineTests {
  static func engine(ping: Int64, pong: Int64) throws -> ClientEngine {
    var timing = ClientTiming()
    timing.pingIntervalMs = ping
    timing.pongTimeoutMs = pong
    timing.requestTimeoutMs = 100_000_000  // set_max_message_size's deadline out of the way
    return try ClientEngineErrorTests.readyEngine(
      ClientConfiguration(apiKey: ClientEngineErrorTests.key, allowAuthV1: true, timing: timing))
  }

  /// Fires every timer the engine armed, in deadline order, until `until` or the connection is lost;
  /// returns the time it was lost (`nil`: still ready at `until`).
  static func silentPeer(_ engine: inout ClientEngine, until: Int64) throws -> Int64? {
    while engine.state == .ready {
      guard let (timer, at) = engine.armed.min(by: { ($0.value, $0.key.description) < ($1.value, $1.key.description) }),
        at <= until
      else { return nil }
      _ = try engine.handle(.timerFired(timer), now: at)
      if engine.state != .ready { return at }
    }
    return nil
  }

  @Test(arguments: [(30_000, 15_000), (30_000, 30_000), (30_000, 45_000), (10_000, 95_000), (1, 1_000)])
  func aDeadPeerIsDetectedWithinThePongTimeoutOfTheFirstPing(ping: Int64, pong: Int64) throws {
    var engine = try Self.engine(ping: ping, pong: pong)
    // The first ping goes out `ping` ms after authentication (at 0); nothing ever comes back.
    let lost = try Self.silentPeer(&engine, until: ping + pong + 10 * ping)
    #expect(lost == ping + pong, "ping \(ping) ms, pong timeout \(pong) ms: lost at \(String(describing: lost))")
    #expect(engine.state == .backingOff)
  }

  @Test func aLaterPingLeavesTheOutstandingDeadlineAlone() throws {
    var engine = try Self.engine(ping: 30_000, pong: 45_000)
    #expect(
      try engine.handle(.timerFired(.ping), now: 30_000)
        == [.send(.frame("ping")), .armTimer(.pongDeadline, at: 75_000), .armTimer(.ping, at: 60_000)])
    #expect(
      try engine.handle(.timerFired(.ping), now: 60_000) == [.send(.frame("ping")), .armTimer(.ping, at: 90_000)],
      "the second ping must not move the first one's deadline")
    // A pong answers the outstanding pings; the next ping arms a fresh deadline.
    #expect(try engine.handle(.frameReceived(.frame("pong")), now: 61_000) == [.cancelTimer(.pongDeadline)])
    #expect(
      try engine.handle(.timerFired(.ping), now: 90_000)
        == [.send(.frame("ping")), .armTimer(.pongDeadline, at: 135_000), .armTimer(.ping, at: 120_000)])
  }

  /// Any frame after the first unanswered ping still counts as an answer: the deadline passes without
  /// effect, and the next ping arms a new one.
  @Test func aFrameAfterTheFirstPingKeepsTheConnection() throws {
    var engine = try Self.engine(ping: 30_000, pong: 45_000)
    _ = try engine.handle(.timerFired(.ping), now: 30_000)
    _ = try engine.handle(.timerFired(.ping), now: 60_000)
    _ = try engine.handle(.frameReceived(.frame("session_list", ["sessions": [], "total_count": 0])), now: 70_000)
    #expect(try engine.handle(.timerFired(.pongDeadline), now: 75_000).isEmpty)
    #expect(engine.state == .ready)
    #expect(
      try engine.handle(.timerFired(.ping), now: 90_000)
        == [.send(.frame("ping")), .armTimer(.pongDeadline, at: 135_000), .armTimer(.ping, at: 120_000)])
  }
}
