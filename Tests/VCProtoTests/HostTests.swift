import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `ClientHost` and `ServerHost` over the in-memory transport, their timers on a `TestClock`: no
/// real time passes and no test sleeps.
@Suite struct HostTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"
  static let url = URL(string: "ws://in-memory/")!
  static let sessionId = "3b9f2c1e-7d4a-4f6b-8c2e-1a5d9e0f7b3c"

  static var serverConfiguration: ServerConfiguration {
    ServerConfiguration(
      offer: ServerOffer(protocolVersions: ["0.5.0"], authVersions: [1, 2], capabilities: ["heartbeat"]),
      apiKey: key)
  }

  static var clientConfiguration: ClientConfiguration {
    ClientConfiguration(apiKey: key, capabilities: ["heartbeat"])
  }

  /// The application of the test server: an empty history for every subscription, no recipes.
  @Sendable static func serve(_ connection: ServerConnection) async {
    for await event in connection.events {
      switch event {
      case .subscribe(let sessionId, _):
        try? await connection.send(
          .sessionHistory(
            .v0_5_0(SessionHistoryMessageV0_5_0(sessionId: sessionId, messages: [], nextOffset: 0, endOfFile: true))))
      case .request(.getAvailableRecipes):
        try? await connection.send(.availableRecipes(AvailableRecipesMessage(recipes: [])))
      default:
        break
      }
    }
  }

  /// A server host serving `network` with ``serve(_:)``, running until stopped.
  struct Server {
    let host: ServerHost
    let task: Task<Void, Never>
    let events = Locked<[ServerApplicationEvent]>([])

    init(network: InMemoryWebSocketNetwork, clock: TestClock) {
      let host = ServerHost(configuration: HostTests.serverConfiguration, listener: network, clock: clock)
      self.host = host
      task = Task { await host.run(HostTests.serve) }
    }

    func stop() async {
      await host.stop()
      await task.value
    }
  }

  @Test func handshakeThenARequestGetsItsTypedAnswer() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = Server(network: network, clock: clock)
      let client = await ClientHost.connect(
        to: Self.url, configuration: Self.clientConfiguration, connector: network, clock: clock)
      let events = EventLog(client.events)
      let connected = await events.next { if case .connected = $0 { true } else { false } }
      guard case .connected(let version, _, let authVersion)? = connected?.element else {
        Issue.record("not connected: \(events.elements)")
        return
      }
      #expect(version == .v0_5_0)
      #expect(authVersion == 2)  // auth v2 by default: the key never crosses
      let answer = try await client.send(.getAvailableRecipes(GetAvailableRecipesMessage()))
      #expect(answer == .availableRecipes(AvailableRecipesMessage(recipes: [])))
      await #expect(throws: ClientHostError.self) { _ = try await client.send(.ping(PingMessage())) }
      await client.stop()
      await events.finished()
      await server.stop()
      #expect(network.urls == [Self.url])
    }
  }

  @Test func aRequestMadeBeforeTheConnectionIsReadyWaitsForIt() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let client = await ClientHost.connect(
        to: Self.url, configuration: Self.clientConfiguration, connector: network, clock: clock)
      let answer = Task { try await client.send(.getAvailableRecipes(GetAvailableRecipesMessage())) }
      let server = Server(network: network, clock: clock)
      let answered = try await answer.value
      #expect(answered == .availableRecipes(AvailableRecipesMessage(recipes: [])))
      await client.stop()
      await server.stop()
    }
  }

  @Test func subscribeDeliversTheSessionAndResubscribesAfterADrop() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = Server(network: network, clock: clock)
      let client = await ClientHost.connect(
        to: Self.url, configuration: Self.clientConfiguration, connector: network, clock: clock)
      let events = EventLog(client.events)
      try await client.subscribe(sessionId: Self.sessionId, cursor: .offset(0, signature: nil))
      let first = await events.next {
        if case .sessionUpdate(let u) = $0 { u.sessionId == Self.sessionId } else { false }
      }
      #expect(first != nil)

      // The network fails: the host reports it, backs off on the test clock, reconnects, resubscribes.
      network.clientEnds[0].drop()
      let down = await events.next(from: first!.index) { if case .disconnected = $0 { true } else { false } }
      #expect(down != nil)
      let scheduled = await events.next(from: down!.index) {
        if case .reconnectScheduled = $0 { true } else { false }
      }
      #expect(network.clientEnds.count == 1)  // nothing before the backoff passed
      clock.advance(by: .seconds(60))
      let again = await events.next(from: scheduled!.index) { if case .connected = $0 { true } else { false } }
      #expect(again != nil)
      let resubscribed = await events.next(from: again!.index) {
        if case .sessionUpdate(let u) = $0 { u.sessionId == Self.sessionId } else { false }
      }
      #expect(resubscribed != nil)
      #expect(network.clientEnds.count == 2)
      await client.stop()
      await server.stop()
    }
  }

  @Test func aLateReportOfAReplacedTransportIsIgnored() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = Server(network: network, clock: clock)
      let client = await ClientHost.connect(
        to: Self.url, configuration: Self.clientConfiguration, connector: network, clock: clock)
      let events = EventLog(client.events)
      let first = await events.next { if case .connected = $0 { true } else { false } }
      network.clientEnds[0].drop()
      let scheduled = await events.next(from: first!.index) { if case .reconnectScheduled = $0 { true } else { false } }
      clock.advance(by: .seconds(60))
      let second = await events.next(from: scheduled!.index) { if case .connected = $0 { true } else { false } }
      #expect(second != nil)
      let core = client.core
      let current = await core.generation
      #expect(await core.link?.generation == current)
      // The first transport (generation 1) reports late: a message, its close, even an open.
      await core.received(.text(Self.hello), generation: 1)
      await core.transportClosed(.abnormal, generation: 1)
      let (stale, _) = InMemoryWebSocket.pair()
      await core.opened(stale, generation: 1)
      #expect(await core.engine.state == .ready)
      #expect(await core.link?.generation == current)
      #expect(stale.closed != nil)  // a transport opened for a generation gone is closed at once
      #expect(!events.elements[second!.index...].contains { if case .disconnected = $0 { true } else { false } })
      await client.stop()
      await server.stop()
    }
  }

  static let hello =
    #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i","#
    + #""protocol_versions":["0.5.0"],"auth_versions":[1],"capabilities":[]}"#
  static let connected =
    #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.5.0","#
    + #""capabilities":[],"auth_version":1}"#

  @Test func noPongWithinTheDeadlineDropsTheConnection() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      var configuration = Self.clientConfiguration
      configuration.allowAuthV1 = true
      configuration.capabilities = []
      let client = await ClientHost.connect(
        to: Self.url, configuration: configuration, connector: network, clock: clock)
      let events = EventLog(client.events)
      let server = try #require(await network.accept())
      try await server.send(.text(Self.hello))
      _ = await server.receive()  // connect
      try await server.send(.text(Self.connected))
      let connected = await events.next { if case .connected = $0 { true } else { false } }
      #expect(connected != nil)
      let timing = configuration.timing
      clock.advance(by: .milliseconds(timing.pingIntervalMs))
      guard case .message(.text(let ping)) = await server.receive() else {
        Issue.record("no ping")
        return
      }
      #expect(String(decoding: ping, as: UTF8.self).contains("\"ping\""))
      // The server is frozen: no pong.
      clock.advance(by: .milliseconds(timing.pongTimeoutMs))
      let down = await events.next(from: connected!.index) { if case .disconnected = $0 { true } else { false } }
      #expect(down?.element == .disconnected(.pongTimeout))
      // The host closed the dead transport with its reason.
      #expect(await server.receive() == .closed(WebSocketClose(code: .goingAway, reason: "pong_timeout")))
      await client.stop()
    }
  }

  @Test func stopSaysGoodbyeClosesAndEndsEverything() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = Server(network: network, clock: clock)
      let client = await ClientHost.connect(
        to: Self.url, configuration: Self.clientConfiguration, connector: network, clock: clock)
      let events = EventLog(client.events)
      _ = await events.next { if case .connected = $0 { true } else { false } }
      await client.stop()
      await events.finished()
      #expect(events.isFinished)
      #expect(network.clientEnds[0].closed?.code == .normalClosure)
      await #expect(throws: ClientHostError.self) {
        _ = try await client.send(.getAvailableRecipes(GetAvailableRecipesMessage()))
      }
      // Nothing reconnects after a stop, whatever the clock does.
      clock.advance(by: .seconds(3600))
      #expect(network.clientEnds.count == 1)
      await server.stop()
    }
  }

  @Test func serverStopClosesItsConnectionsAndRunReturns() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = Server(network: network, clock: clock)
      let client = await ClientHost.connect(
        to: Self.url, configuration: Self.clientConfiguration, connector: network, clock: clock)
      let events = EventLog(client.events)
      _ = await events.next { if case .connected = $0 { true } else { false } }
      await server.stop()
      let down = await events.next { if case .disconnected = $0 { true } else { false } }
      #expect(down != nil)
      #expect(network.serverEnds[0].closed?.code == .normalClosure)
      await client.stop()
    }
  }
}
