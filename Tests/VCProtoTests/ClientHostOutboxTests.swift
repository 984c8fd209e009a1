import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `ClientHost.send` during a reconnect: the request waits in the engine's outbox and is answered
/// once the connection is back (issue 30: the application had to build its own outbox), or fails
/// with the outbox's typed reason. In-memory transport pair, timers on a `TestClock`.
@Suite struct ClientHostOutboxTests {
  /// A client host connected to a test server, whose connection then dropped: backing off.
  static func reconnecting(
    _ network: InMemoryWebSocketNetwork, _ clock: TestClock,
    configuration: ClientConfiguration = HostTests
      .clientConfiguration
  ) async throws -> (ClientHost, EventLog<ClientApplicationEvent>) {
    let client = await ClientHost.connect(
      to: HostTests.url, configuration: configuration, connector: network, clock: clock)
    let events = EventLog(client.events)
    let connected = try #require(await events.next { if case .connected = $0 { true } else { false } })
    network.clientEnds[0].drop()
    _ = try #require(
      await events.next(from: connected.index) { if case .reconnectScheduled = $0 { true } else { false } })
    return (client, events)
  }

  /// Waits until the host's engine holds `count` requests in its outbox.
  static func queued(_ client: ClientHost, count: Int) async {
    while await client.core.engine.occupancy.outbox < count { await Task.yield() }
  }

  @Test func aSendDuringAReconnectWaitsThenSucceeds() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = HostTests.Server(network: network, clock: clock)
      let (client, _) = try await Self.reconnecting(network, clock)
      let answer = Task { try await client.send(.getAvailableRecipes(GetAvailableRecipesMessage())) }
      await Self.queued(client, count: 1)
      #expect(network.clientEnds.count == 1, "nothing reconnects before the backoff passed")
      clock.advance(by: .seconds(60))
      #expect(try await answer.value == .availableRecipes(AvailableRecipesMessage(recipes: [])))
      #expect(network.clientEnds.count == 2)
      await client.stop()
      await server.stop()
    }
  }

  @Test func aFullOutboxFailsTheRequestAtOnce() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = HostTests.Server(network: network, clock: clock)
      var configuration = HostTests.clientConfiguration
      configuration.outboxCapacity = 1
      let (client, _) = try await Self.reconnecting(network, clock, configuration: configuration)
      let first = Task { try await client.send(.getAvailableRecipes(GetAvailableRecipesMessage())) }
      await Self.queued(client, count: 1)
      await #expect {
        _ = try await client.send(.getAvailableRecipes(GetAvailableRecipesMessage()))
      } throws: { error in
        if case ClientHostError.requestFailed(.outboxFull) = error { true } else { false }
      }
      clock.advance(by: .seconds(60))
      #expect(try await first.value == .availableRecipes(AvailableRecipesMessage(recipes: [])))
      await client.stop()
      await server.stop()
    }
  }

  @Test func stoppingFailsAQueuedRequest() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = HostTests.Server(network: network, clock: clock)
      let (client, _) = try await Self.reconnecting(network, clock)
      let answer = Task { try await client.send(.getAvailableRecipes(GetAvailableRecipesMessage())) }
      await Self.queued(client, count: 1)
      await client.stop(reason: "user")
      await #expect {
        _ = try await answer.value
      } throws: { error in
        if case ClientHostError.requestFailed(.stopped) = error { true } else { false }
      }
      #expect(network.clientEnds.count == 1, "never sent")
      await server.stop()
    }
  }
}
