import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `ClientHost.post` (a send without an answer to wait for) during a reconnect: it waits for the
/// connection, bounded like the engine's outbox (its capacity, the request timeout), and fails with
/// the outbox's typed reasons. In-memory transport pair, timers on a `TestClock`.
@Suite struct ClientHostPostTests {
  /// Waits until `count` posts wait for the connection in the host.
  static func waiting(_ client: ClientHost, count: Int) async {
    while await client.core.waitingPosts < count { await Task.yield() }
  }

  /// A configuration whose reconnect comes long after a post's timeout of 1 s.
  static var slowReconnect: ClientConfiguration {
    var configuration = HostTests.clientConfiguration
    configuration.timing.requestTimeoutMs = 1_000
    configuration.timing.backoffBaseMs = 10_000
    configuration.timing.backoffFloorMs = 10_000
    configuration.timing.jitter = 0
    return configuration
  }

  @Test func aPostDuringAReconnectWaitsThenIsSent() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = HostTests.Server(network: network, clock: clock)
      let (client, _) = try await ClientHostOutboxTests.reconnecting(network, clock)
      let post = Task { try await client.post(.ping(PingMessage())) }
      await Self.waiting(client, count: 1)
      clock.advance(by: .seconds(60))
      try await post.value
      #expect(network.clientEnds.count == 2)
      #expect(await client.core.waitingPosts == 0)
      await client.stop()
      await server.stop()
    }
  }

  @Test func aPostFailsWithTimeoutWhenTheConnectionIsNotBackInTime() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = HostTests.Server(network: network, clock: clock)
      let (client, _) = try await ClientHostOutboxTests.reconnecting(network, clock, configuration: Self.slowReconnect)
      let post = Task { try await client.post(.ping(PingMessage())) }
      await Self.waiting(client, count: 1)
      clock.advance(by: .seconds(2))
      await #expect {
        try await post.value
      } throws: { error in
        if case ClientHostError.requestFailed(.timeout) = error { true } else { false }
      }
      #expect(network.clientEnds.count == 1, "not reconnected yet")
      #expect(await client.core.waitingPosts == 0)
      await client.stop()
      await server.stop()
    }
  }

  @Test func postsBeyondTheOutboxCapacityFailAtOnce() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = HostTests.Server(network: network, clock: clock)
      var configuration = HostTests.clientConfiguration
      configuration.outboxCapacity = 1
      let (client, _) = try await ClientHostOutboxTests.reconnecting(network, clock, configuration: configuration)
      let first = Task { try await client.post(.ping(PingMessage())) }
      await Self.waiting(client, count: 1)
      await #expect {
        try await client.post(.ping(PingMessage()))
      } throws: { error in
        if case ClientHostError.requestFailed(.outboxFull) = error { true } else { false }
      }
      clock.advance(by: .seconds(60))
      try await first.value
      await client.stop()
      await server.stop()
    }
  }

  @Test func stoppingFailsAWaitingPost() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = HostTests.Server(network: network, clock: clock)
      let (client, _) = try await ClientHostOutboxTests.reconnecting(network, clock, configuration: Self.slowReconnect)
      let post = Task { try await client.post(.ping(PingMessage())) }
      await Self.waiting(client, count: 1)
      await client.stop(reason: "user")
      await #expect {
        try await post.value
      } throws: { error in
        if case ClientHostError.stopped = error { true } else { false }
      }
      await server.stop()
    }
  }
}
