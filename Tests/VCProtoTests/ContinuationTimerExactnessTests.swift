import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A continuation timer names its session by the exact id (issue 29, item 8): two sessions whose ids
/// are canonically equivalent are two timers, in the engine's table and in a host's dictionary, so
/// one session's retry never takes the other's place.
@Suite struct ContinuationTimerExactnessTests {
  static let pairs = CanonicalEquivalenceTests.pairs

  @Test func equivalentIdsAreTwoTimers() {
    for (a, b) in Self.pairs {
      #expect(ConnectionTimer.continuation(sessionId: a) != .continuation(sessionId: b), "\(a) \(b)")
      #expect(Set([ConnectionTimer.continuation(sessionId: a), .continuation(sessionId: b)]).count == 2)
      #expect(ConnectionTimer.continuation(sessionId: a) == .continuation(sessionId: a + ""))
    }
    let all: [ConnectionTimer] = [
      .handshakeDeadline, .reconnect, .ping, .pongDeadline, .heartbeatDeadline, .continuation(sessionId: ""),
      .requestDeadline, .heartbeat, .authDeadline,
    ]
    #expect(Set(all).count == all.count)
    for (i, x) in all.enumerated() {
      for (j, y) in all.enumerated() { #expect((x == y) == (i == j)) }
    }
  }

  /// Both sessions stall on a half-written line (0.5.0: `next_offset` where the `subscribe` asked
  /// from, `end_of_file` false): each gets its own retry, and firing both re-asks both.
  @Test func eachSessionRetriesItsOwnContinuation() throws {
    for (a, b) in Self.pairs {
      var engine = try CanonicalEquivalenceTests.readyClient()
      for id in [a, b] { _ = try engine.handle(.subscribe(sessionId: id, cursor: .offset(10, signature: nil)), now: 1) }
      var armed: [ConnectionTimer: Int64] = [:]
      for id in [a, b] {
        let history = JSONObject.frame(
          "session_history",
          [
            "session_id": .string(id), "messages": [], "next_offset": 10, "end_of_file": false,
            "file_signature": "10:x",
          ])
        for case .armTimer(let timer, let at) in try engine.handle(.frameReceived(history), now: 2) {
          armed[timer] = at
        }
      }
      #expect(armed.count == 2, "\(a) and \(b) share one timer")
      var resent: [String] = []
      for (timer, at) in armed {
        for case .send(let frame) in try engine.handle(.timerFired(timer), now: at) {
          if let id = frame["session_id"]?.stringValue { resent.append(id) }
        }
      }
      #expect(resent.count == 2 && Set(resent.map(ExactString.init)) == [ExactString(a), ExactString(b)], "\(resent)")
      // Unsubscribing one spelling cancels its own timer only.
      var other = try CanonicalEquivalenceTests.readyClient()
      for id in [a, b] { _ = try other.handle(.subscribe(sessionId: id, cursor: .offset(10, signature: nil)), now: 1) }
      for id in [a, b] {
        _ = try other.handle(
          .frameReceived(
            .frame(
              "session_history",
              [
                "session_id": .string(id), "messages": [], "next_offset": 10, "end_of_file": false,
                "file_signature": "10:x",
              ])), now: 2)
      }
      let cancelled = try other.handle(.unsubscribe(sessionId: b), now: 3)
      #expect(cancelled.contains(.cancelTimer(.continuation(sessionId: b))))
      #expect(other.armed[.continuation(sessionId: a)] != nil, "unsubscribing \(b) cancelled \(a)'s retry")
    }
  }
}
