import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

// The client and the server that README.md ("A client in a few lines", "A server in a few lines")
// and the DocC article Sources/VCProto/VCProto.docc/ConnectingWithTheHosts.md show are the code
// between the `snippet` markers below, line for line (`documentationShowsThisCode`). Here they run
// against each other over the in-memory transport: `connector` and `listener` are what a reader passes in (URLSession or
// VCProtoNIO's `WebSocketClient` and `WebSocketListener`).

/// What the documented client hands the application, and a way to end its loop.
final class ShownUpdates: Sendable {
  let updates = Locked<[SessionUpdate]>([])
  let printed = Locked<[String]>([])
  /// Yields each time the client showed something or the server answered.
  let progress = AsyncStream.makeStream(of: Void.self)
}

/// The client of the documents; runs until its task is cancelled (the `for await` then ends).
private func documentedClient(
  url: URL, apiKey: String, id: String, savedCursor: SubscriptionCursor?, connector: any WebSocketConnector,
  shown: ShownUpdates, answers: Locked<[ServerMessage]>
) async throws -> ClientHost {
  func show(_ update: SessionUpdate) {
    shown.updates.withLock { $0.append(update) }
    shown.progress.continuation.yield()
  }
  func print(_ items: Any...) { shown.printed.withLock { $0.append(items.map { "\($0)" }.joined(separator: " ")) } }
  // snippet begin: host client
  // The real backend speaks only auth v1: opting in sends the key in clear and the server proves nothing.
  let configuration = ClientConfiguration(apiKey: apiKey, capabilities: [Capability.heartbeat], allowAuthV1: true)
  let client = await ClientHost.connect(to: url, configuration: configuration, connector: connector)
  try await client.subscribe(sessionId: id, cursor: savedCursor)  // now and after every reconnect
  let recipes = try await client.send(.getAvailableRecipes(GetAvailableRecipesMessage()))  // its typed answer
  try await client.post(.prompt(.v0_3_0(PromptMessageV0_3_0(text: "Run the tests", resumeSessionId: id))))
  for await event in client.events {
    switch event {
    case .sessionUpdate(let update): show(update)  // the history, then each new message; save update.cursor
    case .disconnected(let reason): print("reconnecting:", reason)  // backoff and resubscribing: the host's job
    default: break
    }
  }
  // snippet end: host client
  answers.withLock { $0.append(recipes) }
  return client
}

/// The server of the documents; returns when its listener closes.
private func documentedServer(
  apiKey: String, listener: any WebSocketTransportListener, requests: Locked<[String]>, shown: ShownUpdates
) async {
  @Sendable func sessionList() -> ServerMessage {
    .sessionList(.v0_3_0(SessionListMessageV0_3_0(sessions: [], totalCount: 0)))
  }
  @Sendable func history(_ id: String, from cursor: SubscriptionCursor?) -> ServerMessage {
    .sessionHistory(.v0_5_0(SessionHistoryMessageV0_5_0(sessionId: id, messages: [], nextOffset: 0, endOfFile: true)))
  }
  @Sendable func answer(_ request: ClientMessage) -> ServerMessage {
    requests.withLock { $0.append(request.type) }
    shown.progress.continuation.yield()
    return .availableRecipes(AvailableRecipesMessage(recipes: []))
  }
  // snippet begin: host server
  let server = ServerHost(configuration: ServerConfiguration(offer: .realHead, apiKey: apiKey), listener: listener)
  await server.run { connection in  // each connection in its own task, with its own engine
    for await event in connection.events {  // hello, auth, ping, heartbeat, replay: done by then
      switch event {
      case .authenticated: try? await connection.send(sessionList())
      case .subscribe(let id, let cursor): try? await connection.send(history(id, from: cursor))
      case .request(let request): try? await connection.send(answer(request))  // prompt, execute_command, ...
      default: break  // .closed ends the loop
      }
    }
  }
  // snippet end: host server
}

@Suite struct HostReadmeExampleTests {
  static let apiKey = "untethered-0123456789abcdef0123456789abcdef"
  static let id = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"

  @Test func theDocumentedClientAndServerTalk() async throws {
    let network = InMemoryWebSocketNetwork()
    let requests = Locked<[String]>([])
    let shown = ShownUpdates()
    let serving = Task {
      await documentedServer(apiKey: Self.apiKey, listener: network, requests: requests, shown: shown)
    }
    let answers = Locked<[ServerMessage]>([])
    let running = Task {
      try await documentedClient(
        url: URL(string: "ws://in-memory/")!, apiKey: Self.apiKey, id: Self.id, savedCursor: nil,
        connector: network, shown: shown, answers: answers)
    }
    // Wait (without a clock: every step is a message) until the history reached `show`, then end the loop.
    for await _ in shown.progress.stream
    where !shown.updates.withLock({ $0.isEmpty }) && requests.withLock({ $0.count == 2 }) {
      break
    }
    running.cancel()
    let client = try await running.value
    await client.stop()
    await network.close()
    await serving.value
    #expect(shown.updates.withLock { $0.first?.sessionId } == Self.id)
    #expect(answers.withLock { $0 } == [.availableRecipes(AvailableRecipesMessage(recipes: []))])
    #expect(requests.withLock { $0 } == ["get_available_recipes", "prompt"])
    #expect(shown.printed.withLock { $0 }.isEmpty)
  }

  /// The code between the `snippet` markers, one trimmed line each.
  static func snippet(_ name: String) throws -> [String] {
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let lines = source.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let begin = try #require(lines.firstIndex(of: "// snippet begin: \(name)"))
    let end = try #require(lines.firstIndex(of: "// snippet end: \(name)"))
    return Array(lines[(begin + 1)..<end])
  }

  /// README.md and the DocC article show the client (after `import VCProto`) and the server.
  @Test(arguments: ["README.md", "Sources/VCProto/VCProto.docc/ConnectingWithTheHosts.md"])
  func documentationShowsThisCode(_ path: String) throws {
    let markdown = try String(contentsOf: ReadmeExampleTests.root.appendingPathComponent(path), encoding: .utf8)
    let blocks = ConnectionReadmeExampleTests.swiftBlocks(markdown).map { $0.filter { !$0.isEmpty } }
    let client = try ["import VCProto"] + Self.snippet("host client")
    #expect(blocks.contains(client), "\(path) shows the client exactly as in \(#fileID)")
    let server = try Self.snippet("host server")
    #expect(blocks.contains { $0.suffix(server.count).elementsEqual(server) }, "\(path) shows the server")
  }
}
