import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The host ends reconnecting with a reason (issue 30: a permanent failure was retried forever and
/// the application was never told the client had stopped): ``ClientEvent/stop(reason:)`` while
/// backing off cancels the reconnect and delivers ``ClientApplicationEvent/stopped(reason:)``.
@Suite struct StopReconnectingTests {
  static func backingOff() throws -> ClientEngine {
    var engine = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportClosed(TransportID(1), detail: "certificate rejected"), now: 0)
    #expect(engine.state == .backingOff)
    return engine
  }

  @Test func stopWhileBackingOffEndsReconnectingAndSaysWhy() throws {
    var engine = try Self.backingOff()
    let due = try #require(engine.armed[.reconnect])
    let actions = try engine.handle(.stop(reason: "certificate rejected"), now: 1)
    #expect(actions == [.cancelTimer(.reconnect), .deliver(.stopped(reason: "certificate rejected"))])
    #expect(engine.state == .stopped)
    #expect(try engine.handle(.timerFired(.reconnect), now: due).isEmpty, "no reconnect after the stop")
    #expect(try engine.handle(.stop(reason: "again"), now: due).isEmpty, "told once")
    #expect(try engine.handle(.resume, now: due).first == .openTransport(TransportID(2)))
  }

  @Test func stopOfALiveConnectionSaysWhyAfterDisconnected() throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    let actions = try engine.handle(.stop(reason: "user"), now: 1)
    #expect(
      actions.suffix(2) == [.deliver(.disconnected(.clientDisconnect)), .deliver(.stopped(reason: "user"))])
  }

  @Test func stopOfARefusedClientSaysWhy() throws {
    var engine = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: false))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(TransportID(1), clientNonce: String(repeating: "ab", count: 16)), now: 0)
    _ = try engine.handle(
      .frameReceived(.frame("hello", ["message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1])),
      now: 0)
    #expect(engine.state == .reauthRequired)
    #expect(try engine.handle(.stop(reason: "signed out"), now: 1) == [.deliver(.stopped(reason: "signed out"))])
  }
}
