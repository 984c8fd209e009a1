import Foundation
import Testing
import TransportTestSupport
import VCProto
import VCProtoNIO

/// README.md's "A client in a few lines" on Linux, with the NIO connector (`WebSocketClient()`),
/// against the Python backend: the snippet as printed, inside a function that gives it its names.
/// `readmeShowsThisSnippet` reads README.md and checks it shows the code between the `snippet`
/// markers line for line (but for the lines marked `// test only`), so the two cannot drift.
@Suite struct ReadmeClientTests {
  @Test(.timeLimit(.minutes(1)))
  func theReadmeClientRunsOverTheNIOTransport() async throws {
    let session = try SessionFile.make(messages: 3)
    let backend = try await PythonBackend.start(session: session)
    defer { backend.kill() }
    let apiKey = PythonBackend.apiKey
    let url = URL(string: backend.url)!
    let id = session.id
    let savedCursor: SubscriptionCursor? = nil
    let connector = WebSocketClient()
    let shown = Shown()
    func show(_ update: SessionUpdate) { shown.show(update) }

    // snippet begin: README client
    // The real backend speaks only auth v1: opting in sends the key in clear and the server proves nothing.
    let configuration = ClientConfiguration(apiKey: apiKey, capabilities: [Capability.heartbeat], allowAuthV1: true)
    let client = await ClientHost.connect(to: url, configuration: configuration, connector: connector)
    shown.stop(client)  // test only
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
    // snippet end: README client

    #expect(recipes == .availableRecipes(AvailableRecipesMessage(recipes: [])))
    #expect(shown.texts == ["m0", "m1", "m2", "Run the tests", "echo: Run the tests"])
  }

  /// README.md's Swift block that starts with `import VCProto` under "A client in a few lines" is
  /// `import VCProto` and the snippet above, line for line (trimmed, blank lines aside).
  @Test func readmeShowsThisSnippet() throws {
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let lines = source.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let begin = try #require(lines.firstIndex(of: "// snippet begin: README client"))
    let end = try #require(lines.firstIndex(of: "// snippet end: README client"))
    let snippet = lines[(begin + 1)..<end].filter { !$0.hasSuffix("// test only") && !$0.isEmpty }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "## A client in a few lines").dropFirst().first)
    let body = section.components(separatedBy: "\n## ")[0]
    var blocks: [[String]] = []
    var block: [String]?
    for line in body.components(separatedBy: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if line == "```swift" {
        block = []
      } else if line == "```", let finished = block {
        blocks.append(finished)
        block = nil
      } else if !line.isEmpty {
        block?.append(line)
      }
    }
    let shown = try #require(blocks.first { $0.first == "import VCProto" })
    #expect(shown == ["import VCProto"] + snippet)
  }

  /// What the snippet's `show` saw; it stops the client once the answer to the prompt arrived.
  final class Shown: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []
    private var client: ClientHost?

    var texts: [String] { lock.withLock { seen } }

    /// Stops `client` once the answer arrived.
    func stop(_ client: ClientHost) { lock.withLock { self.client = client } }

    func show(_ update: SessionUpdate) {
      let texts = lock.withLock {
        seen += EndToEnd.insertedTexts(.sessionUpdate(update))
        return seen
      }
      if texts.contains("echo: Run the tests"), let client = lock.withLock({ client }) {
        Task { await client.stop() }
      }
    }
  }
}
