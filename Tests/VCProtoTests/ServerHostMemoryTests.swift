import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `ServerHost` keeps each client's `ServerMemory` (idempotency keys, replay buffer) across the
/// client's reconnects, named by `connect.session_id`, and remembers a bounded number of clients.
@Suite struct ServerHostMemoryTests {
  static let sessionId = HostTests.sessionId

  static var serverConfiguration: ServerConfiguration {
    ServerConfiguration(
      offer: ServerOffer(protocolVersions: ["0.5.0"], authVersions: [1, 2], capabilities: ["idempotent_prompt"]),
      apiKey: HostTests.key)
  }

  /// A server host whose application records every prompt it is asked to run and every duplicate
  /// the engine answered itself, as `"prompt <key>"` and `"duplicate <key>"`.
  struct Server {
    let host: ServerHost
    let task: Task<Void, Never>
    let seen = Locked<[String]>([])

    init(
      network: InMemoryWebSocketNetwork, clock: TestClock, rememberedClients: Int = ServerHost.defaultRememberedClients
    ) {
      let host = ServerHost(
        configuration: ServerHostMemoryTests.serverConfiguration, listener: network, clock: clock,
        rememberedClients: rememberedClients)
      self.host = host
      let seen = self.seen
      task = Task {
        await host.run { connection in
          for await event in connection.events {
            switch event {
            case .request(.prompt(.v0_3_0(let prompt))):
              seen.withLock { $0.append("prompt \(prompt.idempotencyKey ?? "")") }
            case .duplicatePrompt(let key): seen.withLock { $0.append("duplicate \(key)") }
            default: break
            }
          }
        }
      }
    }

    /// Waits until the application saw `count` prompts or duplicates.
    func waitForSeen(_ count: Int) async throws {
      while seen.withLock({ $0.count }) < count { try await Task.sleep(for: .milliseconds(1)) }
    }

    func stop() async {
      await host.stop()
      await task.value
    }
  }

  static func prompt(key: String) -> ClientMessage {
    .prompt(.v0_3_0(PromptMessageV0_3_0(text: "Run the tests", resumeSessionId: sessionId, idempotencyKey: key)))
  }

  /// A raw client connection authenticated (auth v1) as `client`, with `idempotent_prompt`.
  static func authenticate(_ network: InMemoryWebSocketNetwork, as client: String?) async throws
    -> any WebSocketTransport
  {
    let transport = try await network.connect(to: HostTests.url)
    _ = await transport.receive()  // hello
    let named = client.map { #","session_id":"\#($0)""# } ?? ""
    let connect =
      #"{"type":"connect","api_key":"\#(HostTests.key)","protocol_version":"0.5.0","#
      + #""capabilities":["idempotent_prompt"]\#(named)}"#
    try await transport.send(.text(Array(connect.utf8)))
    guard case .message(.text(let connected)) = await transport.receive(),
      String(decoding: connected, as: UTF8.self).contains(#""type":"connected""#)
    else {
      Issue.record("not connected")
      throw CancellationError()
    }
    return transport
  }

  static func sendPrompt(_ transport: any WebSocketTransport, key: String) async throws {
    let prompt = #"{"type":"prompt","text":"t","resume_session_id":"\#(sessionId)","idempotency_key":"\#(key)"}"#
    try await transport.send(.text(Array(prompt.utf8)))
  }

  @Test func aPromptResentWithItsKeyAfterAReconnectIsNotRunTwice() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let clock = TestClock()
      let server = Server(network: network, clock: clock)
      let configuration = ClientConfiguration(
        apiKey: HostTests.key, capabilities: [Capability.idempotentPrompt], sessionId: "phone-1")
      let client = await ClientHost.connect(
        to: HostTests.url, configuration: configuration, connector: network, clock: clock)
      let events = EventLog(client.events)
      let first = try #require(await events.next { if case .connected = $0 { true } else { false } })
      try await client.post(Self.prompt(key: "turn-1"))
      try await server.waitForSeen(1)

      // The connection drops before the client saw the ack; it reconnects and resends the prompt.
      network.clientEnds[0].drop()
      let scheduled = try #require(
        await events.next(from: first.index) { if case .reconnectScheduled = $0 { true } else { false } })
      clock.advance(by: .seconds(60))
      _ = try #require(await events.next(from: scheduled.index) { if case .connected = $0 { true } else { false } })
      try await client.post(Self.prompt(key: "turn-1"))
      try await server.waitForSeen(2)
      #expect(server.seen.withLock { $0 } == ["prompt turn-1", "duplicate turn-1"])
      #expect(network.clientEnds.count == 2)
      await client.stop()
      await server.stop()
    }
  }

  @Test func aReconnectWhileTheOldConnectionIsStillOpenStartsFromItsMemory() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let server = Server(network: network, clock: TestClock())
      // The first connection is never closed: the server has not noticed the network failure.
      let old = try await Self.authenticate(network, as: "phone-1")
      try await Self.sendPrompt(old, key: "turn-1")
      try await server.waitForSeen(1)
      let new = try await Self.authenticate(network, as: "phone-1")
      try await Self.sendPrompt(new, key: "turn-1")
      try await server.waitForSeen(2)
      // Another client with the same key is another prompt.
      let other = try await Self.authenticate(network, as: "tablet-1")
      try await Self.sendPrompt(other, key: "turn-1")
      try await server.waitForSeen(3)
      #expect(server.seen.withLock { $0 } == ["prompt turn-1", "duplicate turn-1", "prompt turn-1"])
      await server.stop()
    }
  }

  @Test func theLeastRecentlyConnectedClientIsForgottenBeyondTheCap() async throws {
    try await withDeadline {
      let network = InMemoryWebSocketNetwork()
      let server = Server(network: network, clock: TestClock(), rememberedClients: 2)
      for (index, client) in ["a", "b", "c"].enumerated() {
        let transport = try await Self.authenticate(network, as: client)
        try await Self.sendPrompt(transport, key: "k")
        try await server.waitForSeen(index + 1)
        await transport.close(code: .normalClosure, reason: "")
        while server.host.rememberedClientCount != min(index + 1, 2) || network.serverEnds[index].closed == nil {
          try await Task.sleep(for: .milliseconds(1))
        }
      }
      #expect(server.host.rememberedClientCount == 2)
      // "a" was forgotten: its key runs again; "c" is remembered.
      for (index, client) in ["a", "c"].enumerated() {
        let transport = try await Self.authenticate(network, as: client)
        try await Self.sendPrompt(transport, key: "k")
        try await server.waitForSeen(4 + index)
      }
      #expect(server.seen.withLock { $0 } == ["prompt k", "prompt k", "prompt k", "prompt k", "duplicate k"])
      // A client that names itself not is never remembered.
      let anonymous = try await Self.authenticate(network, as: nil)
      try await Self.sendPrompt(anonymous, key: "k")
      try await server.waitForSeen(6)
      #expect(server.seen.withLock { $0 }.last == "prompt k")
      await server.stop()
    }
  }
}
