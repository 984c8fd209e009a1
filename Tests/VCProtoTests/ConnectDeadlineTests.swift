import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The connect deadline (issue 30): a TCP connect or WebSocket upgrade that hangs no longer leaves the
/// client `connecting` for as long as the host waits. Armed with each ``ClientAction/openTransport(_:)``,
/// cancelled when that transport opens; when it passes, the transport is closed and the client backs off.
@Suite struct ConnectDeadlineTests {
  static func engine(_ timing: ClientTiming = ClientTiming()) -> ClientEngine {
    ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true, timing: timing))
  }

  @Test func armedWithEachOpenAndCancelledWhenItOpens() throws {
    var engine = Self.engine()
    #expect(engine.configuration.timing.connectTimeoutMs == 15_000)
    #expect(
      try engine.handle(.start, now: 100) == [.openTransport(TransportID(1)), .armTimer(.connectDeadline, at: 15_100)])
    let opened = try engine.handle(.transportOpened(TransportID(1), clientNonce: "00"), now: 200)
    #expect(opened == [.cancelTimer(.connectDeadline), .armTimer(.handshakeDeadline, at: 30_200)])
    #expect(try engine.handle(.timerFired(.connectDeadline), now: 15_100).isEmpty, "cancelled: a late fire is stale")
    #expect(engine.state == .awaitingHello)
  }

  @Test func aHangingOpenIsClosedAndBacksOff() throws {
    var engine = Self.engine()
    _ = try engine.handle(.start, now: 0)
    let fired = try engine.handle(.timerFired(.connectDeadline), now: 15_000)
    #expect(fired.first == .closeTransport(TransportID(1), .connectTimeout))
    #expect(fired.contains(.deliver(.disconnected(.connectTimeout))))
    #expect(engine.state == .backingOff && engine.currentTransport == nil)
    // The abandoned socket opening late changes nothing; the next one gets its own deadline.
    #expect(try engine.handle(.transportOpened(TransportID(1), clientNonce: "00"), now: 15_001).isEmpty)
    let due = try #require(engine.armed[.reconnect])
    let reopened = try engine.handle(.timerFired(.reconnect), now: due)
    #expect(reopened == [.openTransport(TransportID(2)), .armTimer(.connectDeadline, at: due + 15_000)])
  }

  @Test func closedOrStoppedWhileOpeningCancelsIt() throws {
    var engine = Self.engine()
    _ = try engine.handle(.start, now: 0)
    #expect(
      try engine.handle(.transportClosed(TransportID(1), detail: "refused"), now: 1).first
        == .cancelTimer(.connectDeadline))
    var stopped = Self.engine()
    _ = try stopped.handle(.start, now: 0)
    #expect(try stopped.handle(.stop(reason: "user"), now: 1).first == .cancelTimer(.connectDeadline))
  }

  @Test func configuredAndClamped() throws {
    var timing = ClientTiming()
    timing.connectTimeoutMs = 0
    var engine = Self.engine(timing)
    #expect(engine.configuration.timing.connectTimeoutMs == 1)
    #expect(try engine.handle(.start, now: 5).last == .armTimer(.connectDeadline, at: 6))
    timing.connectTimeoutMs = .max
    engine = Self.engine(timing)
    #expect(try engine.handle(.start, now: 5).last == .armTimer(.connectDeadline, at: .max), "saturates: off in effect")
  }
}
