import Foundation
import Testing
import TransportTestSupport
import VCProto
import VCProtoNIO

/// A Swift ``ClientHost`` and a Swift ``ServerHost`` over the NIO transports on loopback: a whole
/// 0.5.0 conversation, both captures passing `vcproto validate`.
@Suite struct SwiftHostsEndToEndTests {
  /// A server application holding one session in memory, as the Python backend does with a file:
  /// 7 messages on 8 lines (line 3 carries none), pages of 3 lines, a prompt answered with `ack`,
  /// then `turn_complete` and the push of the two new lines.
  actor Backend {
    let sessionId: String
    var lines: [String?]  // a message's text, or nil for a line without one
    init(sessionId: String) {
      self.sessionId = sessionId
      lines = (0..<7).map { "m\($0)" }
      lines.insert(nil, at: 3)
    }

    static let decoder = MessageDecoder(
      options: ValidationOptions(direction: .serverToClient, version: .v0_5_0))

    static func message(_ json: JSONValue) throws -> ServerMessage {
      try decoder.decodeServerMessage(Array(json.jsonText.utf8))
    }

    func history(from: Int, count: Int? = nil) throws -> ServerMessage {
      let end = min(from + (count ?? lines.count), lines.count)
      let messages: [JSONValue] = (from..<max(from, end)).compactMap { offset in
        guard let text = lines[offset] else { return nil }
        return [
          "uuid": .string("u\(offset)"), "role": offset % 2 == 0 ? "user" : "assistant", "text": .string(text),
          "timestamp": nil, "provider": "claude", "session_id": .string(sessionId),
          "offset": .number(JSONNumber(offset)),
        ]
      }
      return try Self.message([
        "type": "session_history", "session_id": .string(sessionId), "messages": .array(messages),
        "next_offset": .number(JSONNumber(max(from, end))), "end_of_file": .bool(end >= lines.count),
        "file_signature": .string("\(lines.count * 100):u0"),
      ])
    }

    func answer(_ text: String) -> Int {
      lines.append(text)
      lines.append("echo: " + text)
      return lines.count - 2
    }

    func serve(_ connection: ServerConnection) async {
      for await event in connection.events {
        do {
          switch event {
          case .authenticated:
            let summary: JSONValue = [
              "session_id": .string(sessionId), "name": "Session", "working_directory": "/tmp",
              "last_modified": 1_768_152_332_123, "message_count": .number(JSONNumber(lines.count)),
            ]
            try await connection.send(
              Self.message(["type": "session_list", "sessions": [summary], "total_count": 1]))
          case .subscribe(let id, let cursor) where id == sessionId:
            var from = 0
            if case .offset(let offset, _)? = cursor { from = Int(offset) }
            try await connection.send(history(from: from, count: 3))
          case .request(.prompt(.v0_3_0(let prompt))):
            try await connection.send(Self.message(["type": "ack", "message": "Processing prompt..."]))
            let first = answer(prompt.text)
            try await Task.sleep(nanoseconds: 50_000_000)
            try await connection.send(Self.message(["type": "turn_complete", "session_id": .string(sessionId)]))
            try await connection.send(history(from: first))
          default:
            break
          }
        } catch {
          Issue.record("the server application failed: \(error)")
        }
      }
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aWholeConversation() async throws {
    let sessionId = UUID().uuidString.lowercased()
    let backend = Backend(sessionId: sessionId)
    let listener = try await WebSocketListener.bind(host: "127.0.0.1", port: 0)
    let serverCapture = try EndToEnd.capture()
    let server = ServerHost(
      configuration: ServerConfiguration(
        offer: ServerOffer(versions: .negotiating(floor: .v0_4_0, ceiling: .v0_5_0), authVersions: [1, 2]),
        apiKey: EndToEnd.apiKey),
      listener: listener, capture: serverCapture.1)
    let serving = Task { await server.run { await backend.serve($0) } }
    let clientCapture = try EndToEnd.capture()
    let client = await ClientHost.connect(
      to: URL(string: "ws://127.0.0.1:\(listener.port)/")!, configuration: EndToEnd.configuration(),
      connector: EndToEnd.connector, capture: clientCapture.1)
    let events = EventLog(client.events)

    let connected = try await events.wait("connected") { $0.isConnected }
    guard case .connected(let version, _, let authVersion) = events.all[connected] else { return }
    #expect(version == .v0_5_0)
    #expect(authVersion == 2)  // both offer auth v2: the key never crosses
    try await events.wait("session_list") { EndToEnd.receivedType($0) == "session_list" }
    // The history in pages of 3 lines: the engine continues from each next_offset.
    try await client.subscribe(sessionId: sessionId)
    try await events.waitForTexts((0..<7).map { "m\($0)" })
    let answer = try await client.send(EndToEnd.prompt("hello", session: sessionId))
    guard case .ack = answer else { throw TestFailure("answered \(answer)") }
    try await events.wait(from: 0, "turn_complete") { EndToEnd.receivedType($0) == "turn_complete" }
    try await events.waitForTexts(from: 0, ["hello", "echo: hello"])
    // A ping after 2 s, answered.
    try await EndToEnd.waitForFrame("pong", in: clientCapture.0)
    await client.stop()
    await server.stop()
    await serving.value

    let records = try EndToEnd.records(clientCapture.0)
    let types = records.map(\.type)
    for type in [
      "hello", "connect", "connected", "session_list", "subscribe", "session_history", "prompt", "ack",
      "turn_complete", "ping", "pong",
    ] {
      #expect(types.contains(type), "\(type) missing from \(types)")
    }
    #expect(types.filter { $0 == "subscribe" }.count >= 3)  // 0-2, 3-5, 6-7: continuations
    for capture in [clientCapture.0, serverCapture.0] {
      let validated = validate(capture)
      #expect(validated.status == 0, "\(validated.out)")
      #expect(validated.out.hasPrefix("OK "), "\(validated.out)")
    }
  }
}
