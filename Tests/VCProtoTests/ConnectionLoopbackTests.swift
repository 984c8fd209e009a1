import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A client engine and a server engine talking to each other through a pretend socket (frames are
/// written as JSON text and parsed again), for every version and both auth versions. Each frame
/// either side sends is also checked by the validator where vcproto has that version's catalog.
@Suite struct ConnectionLoopbackTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"

  struct Loopback {
    var client: ClientEngine
    var server: ServerEngine
    let serverConfiguration: ServerConfiguration
    var now: Int64 = 1_768_150_000_000
    var toClient: [JSONObject] = []
    var toServer: [JSONObject] = []
    var clientEvents: [ClientApplicationEvent] = []
    /// The client's socket: the last transport it asked for.
    var socket = TransportID(0)
    var serverEvents: [ServerApplicationEvent] = []
    var problems: [String] = []
    var sent: [String] = []

    init(client: ClientConfiguration, server: ServerConfiguration) {
      self.client = ClientEngine(client)
      self.server = ServerEngine(server)
      serverConfiguration = server
    }

    /// Writes and re-reads a frame, and validates it when the catalog knows the version.
    mutating func wire(_ frame: JSONObject, direction: MessageDirection) -> JSONObject {
      let text = JSONValue.object(frame).jsonText
      sent.append(text)
      // The server knows the version first (its `connected` goes out before the client reads it).
      let version = server.outcome?.version.rawValue ?? client.negotiatedVersion?.rawValue ?? "0.2.0"
      if ProtocolCatalog.version(version) != nil {
        let options = ValidationOptions(
          direction: direction, version: ProtocolVersion(rawValue: version)!,
          negotiatedCapabilities: client.capabilities)
        let report = Validator(options: options).validate(text)
        if !report.isValid { problems.append("\(text): \(report.errors.map { "\($0.code) \($0.pointer)" })") }
      }
      guard case .object(let back)? = try? JSONReader(limits: .default).parse(Array(text.utf8)) else {
        problems.append("unreadable \(text)")
        return frame
      }
      return back
    }

    mutating func clientDoes(_ event: ClientEvent) throws {
      for action in try client.handle(event, now: now) {
        switch action {
        case .openTransport(let id):
          socket = id
          server = ServerEngine(serverConfiguration, memory: server.memory)
          try serverDoes(.transportOpened(challenge: String(repeating: "c3", count: 32), connectionId: "conn-1"))
          try clientDoes(.transportOpened(id, clientNonce: String(repeating: "5a", count: 16)))
        case .send(let message): toServer.append(wire(message.object, direction: .clientToServer))
        case .closeTransport: _ = try? server.handle(.transportClosed, now: now)
        case .deliver(let e): clientEvents.append(e)
        case .armTimer, .cancelTimer: break
        }
      }
    }

    mutating func serverDoes(_ event: ServerEvent) throws {
      for action in try server.handle(event, now: now) {
        switch action {
        case .send(let message):
          let frame = (try? JSONReader().parse(message.bytes))?.objectValue ?? JSONObject()
          toClient.append(wire(frame, direction: .serverToClient))
        case .closeTransport(let reason):
          _ = try? client.handle(.transportClosed(socket, detail: reason.code), now: now)
        case .deliver(let e): serverEvents.append(e)
        case .armTimer, .cancelTimer: break
        }
      }
    }

    /// Delivers queued frames until both sides are quiet.
    mutating func pump() throws {
      while !toClient.isEmpty || !toServer.isEmpty {
        if !toClient.isEmpty { try clientDoes(.frameReceived(toClient.removeFirst())) }
        if !toServer.isEmpty { try serverDoes(.frameReceived(toServer.removeFirst())) }
      }
    }
  }

  static let cases: [(versions: [String], auth: [Int], client: String)] = [
    (["0.2.0"], [1], "0.2.0"), (["0.2.0"], [1, 2], "0.2.0"), (["0.3.0", "0.4.0"], [1], "0.3.0"),
    (["0.4.0", "0.5.0"], [1], "0.4.0"), (["0.4.0", "0.5.0"], [1], "0.5.0"), (["0.4.0", "0.5.0"], [1, 2], "0.5.0"),
  ]

  @Test(arguments: 0..<6) func handshakeAndSubscribeEveryVersion(_ index: Int) throws {
    let c = Self.cases[index]
    let capabilities = [Capability.heartbeat, Capability.messageAck]
    var loop = Loopback(
      client: ClientConfiguration(
        apiKey: Self.key, maximumVersion: ProtocolVersion(rawValue: c.client)!, capabilities: capabilities,
        allowAuthV1: true),
      server: ServerConfiguration(
        offer: ServerOffer(protocolVersions: c.versions, authVersions: c.auth, capabilities: capabilities),
        apiKey: Self.key))
    try loop.clientDoes(.subscribe(sessionId: "s-1", cursor: nil))
    try loop.clientDoes(.start)
    try loop.pump()
    #expect(loop.client.state == .ready)
    #expect(loop.server.state == .authenticated)
    #expect(loop.client.negotiatedVersion?.description == c.client)
    #expect(loop.server.outcome?.version.rawValue == c.client)
    #expect(loop.server.outcome?.authVersion == (c.auth.contains(2) ? 2 : 1))
    #expect(loop.server.subscribed == [ExactString("s-1")], "the desired subscription went out once authenticated")
    if c.auth.contains(2) { #expect(!loop.sent.contains { $0.contains(Self.key) }, "auth v2: the key never travels") }
    #expect(loop.problems.isEmpty, "\(loop.problems)")
    // the server engine's subscribe event carries the version's cursor
    let cursor = loop.serverEvents.compactMap { e -> SubscriptionCursor?? in
      if case .subscribe(_, let cursor) = e { return .some(cursor) }
      return nil
    }.first
    switch c.client {
    case "0.5.0": #expect(cursor == .some(.offset(0, signature: nil)))
    case "0.4.0": #expect(cursor == .some(.lastSeq(0)))
    default: #expect(cursor == .some(nil))
    }
  }

  @Test func replayAfterReconnect() throws {
    let caps = [Capability.messageAck]
    var loop = Loopback(
      client: ClientConfiguration(apiKey: Self.key, capabilities: caps, allowAuthV1: true),
      server: ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], capabilities: caps), apiKey: Self.key))
    try loop.clientDoes(.start)
    try loop.pump()
    // The response is sent but lost with the socket: the client never sees it.
    _ = try loop.server.handle(
      .sendFrame(.frame("response", ["message_id": "m-1", "success": true, "text": "Done", "session_id": "s-1"])),
      now: loop.now)
    #expect(loop.server.memory.unacknowledged.map(\.messageId) == ["m-1"])
    try loop.clientDoes(.transportClosed(loop.socket, detail: "reset"))
    loop.now += 2_000
    try loop.clientDoes(.timerFired(.reconnect))
    try loop.pump()
    // The new connection's engine was given the old memory: it replays m-1 and the client acks it.
    let replays = loop.clientEvents.compactMap { e -> JSONObject? in
      if case .received(let m) = e, m.type == "replay" { return m.object }
      return nil
    }
    #expect(replays.count == 1)
    #expect(replays.first?["message_id"] == "m-1")
    #expect(replays.first?["message"]?["text"] == "Done")
    #expect(replays.first?["message"]?["role"] == "assistant")
    #expect(loop.server.memory.unacknowledged.isEmpty, "the client's message_ack emptied the buffer")
    #expect(loop.problems.isEmpty, "\(loop.problems)")
  }
}
