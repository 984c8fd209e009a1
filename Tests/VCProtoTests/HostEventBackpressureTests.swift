import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A peer floods a host whose application reads slowly: the host's `events` buffer stays within
/// its limit (the host stops reading the transport), and once the application reads, every event
/// arrives, in order (nothing dropped).
@Suite struct HostEventBackpressureTests {
  static let limit = 8
  static let flood = 300

  /// Counts the records a capture writes in `direction`: how many messages the host has read.
  final class RecordCounter: Sendable {
    private let counts = Locked([String: Int]())

    func capture() -> JSONLinesCapture {
      JSONLinesCapture { [counts] bytes in
        let line = String(decoding: bytes, as: UTF8.self)
        let direction = line.contains("\"client_to_server\"") ? "client_to_server" : "server_to_client"
        counts.withLock { $0[direction, default: 0] += 1 }
      }
    }

    func count(_ direction: MessageDirection) -> Int { counts.withLock { $0[direction.rawValue, default: 0] } }
  }

  /// Lets the host's tasks run until `done` holds or many turns passed without it.
  static func settle(until done: () async -> Bool) async {
    for _ in 0..<20_000 {
      if await done() { return }
      await Task.yield()
    }
  }

  /// Waits (polling; the test's deadline bounds it) until `done` holds.
  static func eventually(_ done: () -> Bool) async throws {
    while !done() { try await Task.sleep(for: .milliseconds(1)) }
  }

  @Test func aServerFloodingASlowClientFillsAtMostTheBuffer() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      var configuration = ClientConfiguration(apiKey: HostTests.key, allowAuthV1: true)
      configuration.capabilities = []
      let records = RecordCounter()
      let client = await ClientHost.connect(
        to: HostTests.url, configuration: configuration, connector: network, clock: clock,
        capture: records.capture(), eventBufferLimit: Self.limit)
      let server = try #require(await network.accept())
      try await server.send(.text(HostTests.hello))
      _ = await server.receive()  // connect
      try await server.send(.text(HostTests.connected))
      for index in 0..<Self.flood {
        let recipe = #"{"id":"r\#(index)","label":"r","description":"d"}"#
        try await server.send(.text(Array(#"{"type":"available_recipes","recipes":[\#(recipe)]}"#.utf8)))
      }
      let buffer = await client.core.events
      // The application reads nothing: the buffer fills to its limit, and the host stops reading.
      await Self.settle { buffer.count >= Self.limit }
      await Self.settle { false }
      #expect(buffer.count == Self.limit)
      #expect(buffer.peak == Self.limit)
      #expect(records.count(.serverToClient) <= Self.limit + 2)  // hello, connected, then the flood

      // The application reads: every message arrives, in order, and the buffer never grew.
      let events = EventLog(client.events)
      let last = await events.next {
        if case .received(.availableRecipes(let m)) = $0 { m.recipes.first?.id == "r\(Self.flood - 1)" } else { false }
      }
      #expect(last != nil)
      let ids = events.elements.compactMap { event -> String? in
        if case .received(.availableRecipes(let m)) = event { m.recipes.first?.id } else { nil }
      }
      #expect(ids == (0..<Self.flood).map { "r\($0)" })
      #expect(buffer.peak == Self.limit)
      await client.stop()
    }
  }

  @Test func aClientFloodingASlowServerApplicationFillsAtMostTheBuffer() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let configuration = ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.5.0"], authVersions: [1], capabilities: []), apiKey: HostTests.key)
      let records = RecordCounter()
      let host = ServerHost(
        configuration: configuration, listener: network, clock: clock, capture: records.capture(),
        eventBufferLimit: Self.limit)
      let (connections, accepted) = AsyncStream.makeStream(of: ServerConnection.self)
      let (go, start) = AsyncStream.makeStream(of: Void.self)
      let requests = Locked(0)
      let running = Task {
        await host.run { connection in
          accepted.yield(connection)
          for await _ in go { break }  // a slow application: reads nothing until told
          for await event in connection.events {
            if case .request(.getAvailableRecipes) = event { requests.withLock { $0 += 1 } }
          }
        }
      }
      let client = try await network.connect(to: HostTests.url)
      var iterator = connections.makeAsyncIterator()
      let connection = try #require(await iterator.next())
      _ = await client.receive()  // hello
      try await client.send(.text(Array(#"{"type":"connect","api_key":"\#(HostTests.key)"}"#.utf8)))
      _ = await client.receive()  // connected
      for _ in 0..<Self.flood {
        try await client.send(.text(Array(#"{"type":"get_available_recipes"}"#.utf8)))
      }
      let buffer = await connection.core.events
      await Self.settle { buffer.count >= Self.limit }
      await Self.settle { false }
      #expect(buffer.count == Self.limit)
      #expect(buffer.peak == Self.limit)
      #expect(records.count(.clientToServer) <= Self.limit + 1)  // connect, then the flood

      start.yield()
      try await Self.eventually { requests.withLock { $0 } == Self.flood }
      #expect(requests.withLock { $0 } == Self.flood)
      #expect(buffer.peak == Self.limit)
      await client.close(code: .normalClosure, reason: "")
      await host.stop()
      await running.value
    }
  }
}
