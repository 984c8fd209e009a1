import Foundation
import Testing
import VCProto

// The client and the server that the DocC article Sources/VCProto/VCProto.docc/ConnectionEngines.md
// ("A client", "A server") shows are the code between the `snippet` markers below, line for line:
// `documentationShowsThisCode` fails when the article and this file differ, and an API change breaks
// the build of this file, not silently the documents. The file imports VCProto without @testable, as an application
// would.

/// A host built as the documents show: its entry points and its timers.
struct DocumentedHost<Event> {
  var handle: (Event) throws -> Void
  var received: (String) throws -> Void
  var timers: () -> [ConnectionTimer: Int64]
}

/// The wall clock a host reads (milliseconds since 1970).
final class PretendClock {
  var now: Int64
  init(now: Int64) { self.now = now }
}

/// One direction of a WebSocket: the text messages sent on it, and whether it is open.
final class PretendSocket {
  var isOpen = false
  var outbox: [String] = []
  /// The client engine's name for the socket (the last one opened).
  var transport = TransportID(0)
  func open() { isOpen = true }
  func open(_ id: TransportID) {
    transport = id
    isOpen = true
  }
  func send(_ text: String) { outbox.append(text) }
  func send(_ message: WebSocketMessage) { outbox.append(String(decoding: message.bytes, as: UTF8.self)) }
  func close() { isOpen = false }
  func close(_ id: TransportID) { if id == transport { isOpen = false } }
}

/// What the application was handed.
final class PretendApplication<Event> {
  var events: [Event] = []
  func handle(_ event: Event) { events.append(event) }
}

/// The client of the documents.
private func documentedClient(
  apiKey: String, id: String, savedCursor: SubscriptionCursor?, socket: PretendSocket,
  app: PretendApplication<ClientApplicationEvent>, clock: PretendClock
) throws -> DocumentedHost<ClientEvent> {
  var timers: [ConnectionTimer: Int64] = [:]
  // snippet begin: client
  // The real backend speaks only auth v1: opting in sends the key in clear and the server proves nothing.
  let configuration = ClientConfiguration(apiKey: apiKey, capabilities: [Capability.heartbeat], allowAuthV1: true)
  var client = ClientEngine(configuration)
  func handle(_ event: ClientEvent) throws {
    for action in try client.handle(event, now: clock.now) {
      switch action {
      case .openTransport(let id): socket.open(id)  // then .transportOpened(id, clientNonce: AuthClient.freshNonce())
      case .send(let message): socket.send(message)  // a WebSocket message, sent as it is
      case .closeTransport(let id, _): socket.close(id)  // the engine is done with it: do not report this close
      case .armTimer(let timer, let at): timers[timer] = at  // when due: handle(.timerFired(timer))
      case .cancelTimer(let timer): timers[timer] = nil
      case .deliver(let event): app.handle(event)  // .connected, .received, .sessionUpdate, .violation, ...
      }
    }
  }
  func received(_ message: WebSocketMessage) throws {  // each message from the socket, as it arrived
    try handle(.received(message))
  }
  try handle(.subscribe(sessionId: id, cursor: savedCursor))  // sent once authenticated
  try handle(.start)
  // snippet end: client
  return DocumentedHost(handle: handle, received: { try received(.text($0)) }, timers: { timers })
}

/// The server of the documents.
private func documentedServer(
  apiKey: String, memory: ServerMemory, channel: PretendSocket, app: PretendApplication<ServerApplicationEvent>,
  clock: PretendClock, sessionList: @escaping () -> ServerMessage,
  historyFrame: @escaping (String, SubscriptionCursor?) -> ServerMessage
) throws -> DocumentedHost<ServerEvent> {
  var timers: [ConnectionTimer: Int64] = [:]
  func history(_ id: String, from cursor: SubscriptionCursor?) -> ServerMessage { historyFrame(id, cursor) }
  // snippet begin: server
  var server = ServerEngine(ServerConfiguration(offer: .realHead, apiKey: apiKey), memory: memory)
  func handle(_ event: ServerEvent) throws {
    for action in try server.handle(event, now: clock.now) {
      switch action {
      case .send(let message): channel.send(message)  // the frame as the engine encoded it (and sealed)
      case .closeTransport: channel.close()
      case .armTimer(let timer, let at): timers[timer] = at  // when due: handle(.timerFired(timer))
      case .cancelTimer(let timer): timers[timer] = nil
      case .deliver(.authenticated): try handle(.send(sessionList()))
      case .deliver(.subscribe(let id, let cursor)): try handle(.send(history(id, from: cursor)))
      case .deliver(let event): app.handle(event)  // .request(ClientMessage), .violation, .closed (keep memory)...
      }
    }
  }
  func received(_ text: String) throws {  // each text message from the socket (a binary one: .binary(bytes))
    try handle(.received(.text(text)))
  }
  try handle(.transportOpened(challenge: nil))  // sends hello; auth v2 needs an offer of it and a challenge
  // snippet end: server
  return DocumentedHost(handle: handle, received: received, timers: { timers })
}

@Suite struct ConnectionReadmeExampleTests {
  static let apiKey = "untethered-0123456789abcdef0123456789abcdef"
  static let sessionId = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The application's frames in the example: an empty session list, and an empty 0.5.0 history.
  static func sessionList() -> JSONObject {
    JSONValue(dictionaryLiteral: ("type", "session_list"), ("sessions", []), ("total_count", 0)).objectValue!
  }
  static func history(_ id: String, _ cursor: SubscriptionCursor?) -> JSONObject {
    let frame: JSONValue = [
      "type": "session_history", "session_id": .string(id), "messages": [], "next_offset": 0, "end_of_file": true,
      "file_signature": nil,
    ]
    return frame.objectValue!
  }

  /// Parses every text sent on `socket` since the last call.
  static func take(_ socket: PretendSocket) throws -> [JSONObject] {
    defer { socket.outbox.removeAll() }
    return try socket.outbox.map { try #require(try JSONReader().parse($0).objectValue) }
  }

  /// The documented client and server joined by pretend sockets: a whole connection.
  @Test func documentedClientAndServerTalk() throws {
    let clock = PretendClock(now: 1_768_150_000_000)
    let (toServer, toClient) = (PretendSocket(), PretendSocket())
    let clientApp = PretendApplication<ClientApplicationEvent>()
    let serverApp = PretendApplication<ServerApplicationEvent>()
    let client = try documentedClient(
      apiKey: Self.apiKey, id: Self.sessionId, savedCursor: .offset(0, signature: nil), socket: toServer,
      app: clientApp, clock: clock)
    #expect(toServer.isOpen, "start asks for a socket")
    #expect(toServer.outbox.isEmpty, "nothing is sent before the socket opens")
    let server = try documentedServer(
      apiKey: Self.apiKey, memory: ServerMemory(), channel: toClient, app: serverApp, clock: clock,
      sessionList: { .typed(Self.sessionList()) }, historyFrame: { .typed(Self.history($0, $1)) })
    // STANDARDS.md#timers: a socket not authenticated within 60 s is closed.
    #expect(server.timers()[.authDeadline] == clock.now + 60_000)
    try client.handle(.transportOpened(toServer.transport, clientNonce: AuthClient.freshNonce()))
    func exchange() throws {
      while !toServer.outbox.isEmpty || !toClient.outbox.isEmpty {
        for text in toClient.outbox { try client.received(text) }
        toClient.outbox.removeAll()
        let sent = toServer.outbox
        toServer.outbox.removeAll()
        for text in sent { try server.received(text) }
      }
    }
    try exchange()

    // STANDARDS.md#state-machine: the subscription asked for before the socket opened is sent once
    // authenticated, and the server's answer reaches the application as a session update.
    #expect(clientApp.events.contains(.connected(version: .v0_5_0, capabilities: [], authVersion: 1)))
    #expect(
      clientApp.events.contains(.received(.sessionList(.v0_3_0(SessionListMessageV0_3_0(sessions: [], totalCount: 0)))))
    )
    #expect(!clientApp.events.contains { if case .violation = $0 { true } else { false } })
    #expect(
      clientApp.events.contains(
        .sessionUpdate(SessionUpdate(sessionId: Self.sessionId, cursor: .offset(0, signature: nil), isComplete: true))))
    #expect(serverApp.events.isEmpty, "the server's host answered authenticated and subscribe itself")
    #expect(server.timers()[.authDeadline] == nil, "authenticated: the deadline is cancelled")

    // STANDARDS.md#timers: the first ping 30 s after authentication; the server answers it.
    #expect(client.timers()[.ping] == clock.now + 30_000)
    clock.now += 30_000
    try client.handle(.timerFired(.ping))
    let pings = try Self.take(toServer)
    #expect(pings.map { $0["type"] } == [.string("ping")])
    for ping in pings { try server.received(JSONValue.object(ping).jsonText) }
    #expect(try Self.take(toClient).map { $0["type"] } == [.string("pong")])

    // Text that is not JSON gets the backend's error, and the socket stays open (STANDARDS.md#connection-flow); the
    // application is told of the violation, never handed the frame.
    try server.received("{")
    let answer = try #require(try Self.take(toClient).first)
    #expect(answer["type"] == .string("error"))
    #expect(answer["message"]?.stringValue == "Error processing message: invalid_json")
    let violation = try #require(
      serverApp.events.lazy.compactMap { if case .violation(let v) = $0 { v } else { nil } }.first)
    #expect(violation.disposition == .dropped)
    #expect(violation.findings.map(\.code.rawValue) == ["invalid_json"])
  }

  /// The code between the `snippet` markers, one trimmed line each.
  static func snippet(_ name: String) throws -> [String] {
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let lines = source.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let begin = try #require(lines.firstIndex(of: "// snippet begin: \(name)"))
    let end = try #require(lines.firstIndex(of: "// snippet end: \(name)"))
    return Array(lines[(begin + 1)..<end])
  }

  /// The fenced `swift` blocks of a Markdown file, one trimmed line each.
  static func swiftBlocks(_ markdown: String) -> [[String]] {
    var blocks: [[String]] = []
    var current: [String]?
    for line in markdown.components(separatedBy: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, trimmed == "```swift" {
        current = []
      } else if current != nil, trimmed == "```" {
        blocks.append(current!)
        current = nil
      } else if current != nil {
        current!.append(trimmed)
      }
    }
    return blocks
  }

  /// The DocC article shows the client and the server (README.md shows the hosts: HostReadmeExampleTests).
  @Test(arguments: [("Sources/VCProto/VCProto.docc/ConnectionEngines.md", ["client", "server"])])
  func documentationShowsThisCode(_ path: String, _ names: [String]) throws {
    let markdown = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    let engineBlocks = Self.swiftBlocks(markdown).filter {
      $0.contains { $0.contains("ClientEngine(") || $0.contains("ServerEngine(") }
    }
    #expect(engineBlocks.count == names.count, "\(path) shows \(names.joined(separator: " and "))")
    for name in names {
      let code = try Self.snippet(name)
      #expect(engineBlocks.contains(code), "\(path) shows the \(name) exactly as in \(#fileID)")
    }
  }
}
