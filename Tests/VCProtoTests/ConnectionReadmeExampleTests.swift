import Testing

@testable import VCProto

/// The engine examples in README.md ("A client and a server on the connection engines"), with a
/// pretend socket joining the two (keep them in step with the README).
@Suite struct ConnectionReadmeExampleTests {
  static let apiKey = "untethered-0123456789abcdef0123456789abcdef"

  @Test func readmeClientAndServerTalk() throws {
    let id = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
    let savedCursor: SubscriptionCursor? = .offset(0, signature: nil)
    var toServer: [JSONObject] = []
    var toClient: [JSONObject] = []
    var clientEvents: [ClientApplicationEvent] = []
    var timers: [ConnectionTimer: Int64] = [:]
    let now: Int64 = 1_768_150_000_000
    var opened = false

    // The client, as in the README.
    var client = ClientEngine(ClientConfiguration(apiKey: Self.apiKey, capabilities: [Capability.heartbeat]))
    func perform(_ actions: [ClientAction]) {
      for action in actions {
        switch action {
        case .openTransport: opened = true
        case .send(let frame): toServer.append(frame)
        case .closeTransport: opened = false
        case .armTimer(let timer, let at): timers[timer] = at
        case .cancelTimer(let timer): timers[timer] = nil
        case .deliver(let event): clientEvents.append(event)
        }
      }
    }
    perform(try client.handle(.subscribe(sessionId: id, cursor: savedCursor), now: now))
    perform(try client.handle(.start, now: now))
    #expect(opened)

    // The server, as in the README.
    var server = ServerEngine(ServerConfiguration(offer: .realHead, apiKey: Self.apiKey), memory: ServerMemory())
    func sessionList() -> JSONObject { .frame("session_list", ["sessions": [], "total_count": 0]) }
    func history(_ id: String, from cursor: SubscriptionCursor?) -> JSONObject {
      .frame(
        "session_history",
        ["session_id": .string(id), "messages": [], "next_offset": 0, "end_of_file": true, "file_signature": .null])
    }
    func performServer(_ actions: [ServerAction]) throws {
      for action in actions {
        switch action {
        case .send(let frame): toClient.append(frame)
        case .closeTransport: opened = false
        case .armTimer, .cancelTimer: break
        case .deliver(.authenticated): try performServer(server.handle(.send(sessionList()), now: now))
        case .deliver(.subscribe(let id, let cursor)):
          try performServer(server.handle(.send(history(id, from: cursor)), now: now))
        case .deliver: break
        }
      }
    }
    try performServer(server.handle(.transportOpened(challenge: nil), now: now))
    perform(try client.handle(.transportOpened(clientNonce: AuthClient.freshNonce()), now: now))
    while !toClient.isEmpty || !toServer.isEmpty {
      if !toClient.isEmpty { perform(try client.handle(.frameReceived(toClient.removeFirst()), now: now)) }
      if !toServer.isEmpty { try performServer(server.handle(.frameReceived(toServer.removeFirst()), now: now)) }
    }
    #expect(clientEvents.contains(.connected(version: "0.5.0", capabilities: [], authVersion: 1)))
    #expect(clientEvents.contains(.received(sessionList())))
    #expect(
      clientEvents.contains(
        .sessionUpdate(SessionUpdate(sessionId: id, cursor: .offset(0, signature: nil), isComplete: true))))
    #expect(timers[.ping] == now + 30_000)
  }
}
