import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Transport identity (issue 30): the client engine names each transport it asks for, and news of any
/// transport but its current one is ignored, so a stale close cannot be taken for the current
/// socket's.
@Suite struct TransportIdentityTests {
  static let nonce = String(repeating: "ab", count: 16)

  static func engine() -> ClientEngine {
    ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
  }

  static func opened(_ actions: [ClientAction]) -> [TransportID] {
    actions.compactMap { if case .openTransport(let id) = $0 { id } else { nil } }
  }

  static func closed(_ actions: [ClientAction]) -> [TransportID] {
    actions.compactMap { if case .closeTransport(let id, _) = $0 { id } else { nil } }
  }

  /// The scenario: the documented host reported `transportClosed` after the engine's own
  /// `closeTransport`. Once the engine had already opened the next socket, that report abandoned the
  /// reconnect in progress, and the new socket's `transportOpened` then threw. Now the late report
  /// names the old transport and is ignored.
  @Test func lateCloseOfAClosedTransportDoesNotAbandonTheReconnect() throws {
    var engine = Self.engine()
    #expect(Self.opened(try engine.handle(.start, now: 0)) == [TransportID(1)])
    _ = try engine.handle(.transportOpened(TransportID(1), clientNonce: Self.nonce), now: 0)
    let timedOut = try engine.handle(.timerFired(.handshakeDeadline), now: 30_000)
    #expect(Self.closed(timedOut) == [TransportID(1)])
    #expect(engine.currentTransport == nil)
    let due = try #require(engine.armed[.reconnect])
    #expect(Self.opened(try engine.handle(.timerFired(.reconnect), now: due)) == [TransportID(2)])
    #expect(engine.state == .connecting)

    // The host reports the close it performed for transport 1, late, as the old README said to.
    #expect(try engine.handle(.transportClosed(TransportID(1), detail: "closed"), now: due + 1).isEmpty)
    #expect(engine.state == .connecting)
    #expect(engine.currentTransport == TransportID(2))
    #expect(try engine.handle(.transportOpened(TransportID(1), clientNonce: Self.nonce), now: due + 2).isEmpty)
    let actions = try engine.handle(.transportOpened(TransportID(2), clientNonce: Self.nonce), now: due + 3)
    #expect(actions == [.cancelTimer(.connectDeadline), .armTimer(.handshakeDeadline, at: due + 30_003)])
    #expect(engine.state == .awaitingHello)
  }

  @Test func aClosedTransportsNewsIsIgnoredInEveryState() throws {
    var engine = Self.engine()
    // Idle: no transport at all; a number never given out is ignored too.
    #expect(try engine.handle(.transportClosed(TransportID(0), detail: "x"), now: 0).isEmpty)
    #expect(try engine.handle(.transportOpened(TransportID(9), clientNonce: Self.nonce), now: 0).isEmpty)
    #expect(engine.state == .idle)
    _ = try engine.handle(.start, now: 0)
    let stop = try engine.handle(.stop(reason: "user"), now: 1)
    #expect(Self.closed(stop) == [TransportID(1)], "stop closes the socket still opening")
    #expect(try engine.handle(.transportClosed(TransportID(1), detail: "closed"), now: 2).isEmpty)
    #expect(try engine.handle(.transportOpened(TransportID(1), clientNonce: Self.nonce), now: 2).isEmpty)
    #expect(engine.state == .stopped)
  }

  @Test func theCurrentTransportOpenedTwiceIsIllegal() throws {
    var engine = Self.engine()
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(TransportID(1), clientNonce: Self.nonce), now: 0)
    #expect(
      throws: IllegalEvent(state: "awaiting_hello", event: "transport_opened", reason: "not in the transition table")
    ) {
      _ = try engine.handle(.transportOpened(TransportID(1), clientNonce: Self.nonce), now: 1)
    }
  }

  @Test func transportsAreNumberedInOrderAndEachCloseNamesItsOwn() throws {
    var engine = Self.engine()
    var now: Int64 = 0
    var opened = Self.opened(try engine.handle(.start, now: now))
    for _ in 0..<4 {
      let current = try #require(engine.currentTransport)
      _ = try engine.handle(.transportOpened(current, clientNonce: Self.nonce), now: now)
      now += 30_000
      #expect(Self.closed(try engine.handle(.timerFired(.handshakeDeadline), now: now)) == [current])
      now = try #require(engine.armed[.reconnect])
      opened += Self.opened(try engine.handle(.timerFired(.reconnect), now: now))
    }
    #expect(opened == (1...5).map { TransportID(UInt64($0)) })
    // Closed by itself: the engine forgets it, and a second report of it changes nothing.
    let current = try #require(engine.currentTransport)
    #expect(!(try engine.handle(.transportClosed(current, detail: "refused"), now: now)).isEmpty)
    #expect(engine.currentTransport == nil && engine.state == .backingOff)
    #expect(try engine.handle(.transportClosed(current, detail: "refused"), now: now).isEmpty)
  }
}
