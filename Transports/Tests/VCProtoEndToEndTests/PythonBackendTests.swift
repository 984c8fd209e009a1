import Foundation
import Testing
import TransportTestSupport
import VCProto
import VCProtoNIO

/// The Python backend on its own: ``ClientEngine`` over a ``WebSocketClient`` (one connection, no
/// timers) holds a whole conversation with it, and the capture passes `vcproto validate`.
@Suite struct PythonBackendTests {
  /// One connection driven by the engine: frames in, actions performed, application events kept.
  final class Driver: @unchecked Sendable {
    var engine: ClientEngine
    let connection: WebSocketConnection
    let capture = CaptureWriter()
    var events: [ClientApplicationEvent] = []
    /// The type of every frame received (inside the authenticated wrapper, if any).
    var types: [String] = []

    init(_ configuration: ClientConfiguration, url: String) async throws {
      engine = ClientEngine(configuration)
      connection = try await WebSocketClient.connect(to: WebSocketURL(url)!)
      try await handle(.start)
      try await handle(.transportOpened(engine.currentTransport!, clientNonce: AuthClient.freshNonce()))
    }

    var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    func handle(_ event: ClientEvent) async throws {
      for action in try engine.handle(event, now: now) {
        switch action {
        case .send(let message):
          capture.record("client_to_server", String(decoding: message.bytes, as: UTF8.self))
          try await connection.send(message)
        case .deliver(let event): events.append(event)
        case .closeTransport: await connection.close()
        case .openTransport, .armTimer, .cancelTimer: break
        }
      }
    }

    /// The type of a frame, or of the frame inside an authenticated one.
    static func type(of text: String) -> String {
      guard let frame = try? JSONReader().parse(text).objectValue else { return "?" }
      if frame["type"]?.stringValue == "authenticated", let inner = frame["frame"]?.stringValue {
        return type(of: inner)
      }
      return frame["type"]?.stringValue ?? "?"
    }

    /// Receives frames until `done` holds for the events so far (at most `seconds`).
    func until(seconds: Double = 10, _ done: ([ClientApplicationEvent]) -> Bool) async throws {
      // A receive that never returns would hang the test past its time limit: the connection is
      // closed at the deadline, which ends it.
      let connection = self.connection
      let watchdog = Task {
        try await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
        await connection.close()
      }
      defer { watchdog.cancel() }
      while !done(events) {
        guard case .message(let message) = await connection.receive() else {
          throw TestFailure("closed or timed out; types: \(types) events: \(events)")
        }
        let text = String(decoding: message.bytes, as: UTF8.self)
        capture.record("server_to_client", text)
        types.append(Self.type(of: text))
        try await handle(.received(message))
      }
    }
  }

  static func received(_ type: String) -> ([ClientApplicationEvent]) -> Bool {
    { $0.contains { EndToEnd.receivedType($0) == type } }
  }

  static func texts(_ events: [ClientApplicationEvent]) -> [String] {
    events.flatMap(EndToEnd.insertedTexts)
  }

  /// 0.5.0 and 0.4.0 on auth v1; 0.5.0 on auth v2 with authenticated frames (every frame after
  /// `connected` sealed both ways).
  @Test(.timeLimit(.minutes(1)), arguments: [("0.5.0", "v1"), ("0.4.0", "v1"), ("0.5.0", "v2")])
  func aWholeConversation(version: String, auth: String) async throws {
    let session = try SessionFile.make(messages: 7)
    let frames = auth == "v2" ? ["--capability", "authenticated_frames"] : []
    let backend = try await PythonBackend.start(
      session: session, ["--protocol", version, "--page", "3", "--auth", auth] + frames)
    defer { backend.kill() }
    let client = try await Driver(
      ClientConfiguration(
        apiKey: PythonBackend.apiKey, capabilities: auth == "v2" ? [Capability.authenticatedFrames] : [],
        allowAuthV1: auth == "v1"),
      url: backend.url)
    try await client.until { $0.contains { if case .connected = $0 { true } else { false } } }
    guard
      case .connected(let negotiated, _, _) = client.events.first(where: {
        if case .connected = $0 { true } else { false }
      })
    else { throw TestFailure("no connected") }
    #expect(negotiated.rawValue == version)
    if case .connected(_, let capabilities, let authVersion) = client.events.first {
      #expect(authVersion == (auth == "v2" ? 2 : 1))
      #expect(capabilities == (auth == "v2" ? [Capability.authenticatedFrames] : []))
    }
    // The history comes in pages of 3 (0.5.0: lines; 0.4.0: messages): the engine continues.
    try await client.handle(.subscribe(sessionId: session.id, cursor: nil))
    try await client.until { Self.texts($0).count == 7 }
    #expect(Self.texts(client.events) == (0..<7).map { "m\($0)" })
    try await client.handle(.send(EndToEnd.prompt("hello", session: session.id), requestId: "p1"))
    try await client.until { events in
      Self.received("turn_complete")(events) && Self.texts(events).contains("echo: hello")
        && events.contains { if case .answered("p1", _) = $0 { true } else { false } }
    }
    try await client.handle(.send(.ping(PingMessage()), requestId: nil))
    try await client.until { _ in client.types.last == "pong" }
    try await client.handle(.stop(reason: "done"))
    try client.capture.write()
    let validated = validate(client.capture.url)
    #expect(validated.status == 0, "\(validated.out)")
    #expect(validated.out.hasPrefix("OK "), "\(validated.out)")
    // hello, connect, connected, session_list, recent_sessions, available_commands, 3 subscribes
    // (0.5.0: lines 0-2, 3-5, 6-7) each with available_commands and session_history, prompt, ack,
    // available_commands, turn_complete, the push, ping, pong.
    #expect(client.types.filter { $0 == "session_history" }.count >= 4, "\(client.types)")
  }

  @Test(.timeLimit(.minutes(1)))
  func sigtermClosesEveryConnectionWith1001AndExits0() async throws {
    let session = try SessionFile.make(messages: 1)
    let backend = try await PythonBackend.start(session: session)
    defer { backend.kill() }
    let connection = try await WebSocketClient.connect(to: WebSocketURL(backend.url)!)
    guard case .message = await connection.receive() else { throw TestFailure("no hello") }
    backend.child.signal(SIGTERM)
    #expect(await connection.receive() == .closed(WebSocketClose(code: .goingAway, reason: "going away")))
    #expect(try await backend.child.exitStatus(seconds: 10) == 0)
  }
}
