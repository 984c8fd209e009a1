import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The two engines with `authenticated_frames` negotiated, through the pretend socket of
/// ``ConnectionLoopbackTests``: after `connected` every frame on the wire is sealed, a sealed
/// conversation works, and a plain, altered, replayed, reordered or cross-direction frame closes the
/// connection with the code STANDARDS.md#authenticated-frames gives and reaches no application (issue 29, item 3).
@Suite struct AuthenticatedFramesLoopbackTests {
  typealias Loopback = ConnectionLoopbackTests.Loopback
  static let key = ConnectionLoopbackTests.key
  static let capabilities = [Capability.authenticatedFrames, Capability.heartbeat, Capability.messageAck]

  /// A connection that negotiated authenticated frames, authenticated and quiet.
  static func established() throws -> Loopback {
    var loop = Loopback(
      client: ClientConfiguration(apiKey: key, capabilities: capabilities, allowAuthV1: false),
      server: ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], authVersions: [2], capabilities: capabilities),
        apiKey: key))
    try loop.clientDoes(.subscribe(sessionId: "s-1", cursor: nil))
    try loop.clientDoes(.start)
    try loop.pump()
    return loop
  }

  static let command = JSONObject.frame(
    "execute_command", ["command_id": "c-1", "shell_command": "rm -rf /", "working_directory": "/"])

  /// The requests the server's application was given.
  static func requests(_ loop: Loopback) -> [ClientMessage] {
    loop.serverEvents.compactMap { if case .request(let message) = $0 { message } else { nil } }
  }

  /// The frames the client's application was given (received or as answers).
  static func delivered(_ loop: Loopback) -> [JSONObject] {
    loop.clientEvents.compactMap {
      switch $0 {
      case .received(let message), .answered(_, let message): message.object
      default: nil
      }
    }
  }

  static func serverClose(_ loop: Loopback) -> String? {
    loop.serverEvents.lazy.compactMap { if case .closed(let reason) = $0 { reason.code } else { nil } }.first
  }

  static func clientClose(_ loop: Loopback) -> String? {
    loop.clientEvents.lazy.compactMap { if case .disconnected(let reason) = $0 { reason.code } else { nil } }.first
  }

  @Test func aSealedConversationWorks() throws {
    var loop = try Self.established()
    #expect(loop.client.state == .ready)
    #expect(loop.client.capabilities.contains(Capability.authenticatedFrames))
    #expect(loop.server.outcome?.capabilities.contains(Capability.authenticatedFrames) == true)
    #expect(loop.server.subscribed == [ExactString("s-1")], "the sealed subscribe was opened and handled")
    try loop.clientDoes(.send(Self.command, requestId: "r-1"))
    try loop.pump()
    #expect(Self.requests(loop) == [.typed(Self.command)], "the server's application got the inner frame")
    let started = JSONObject.frame(
      "command_started", ["command_session_id": "cs-1", "command_id": "c-1", "shell_command": "rm -rf /"])
    try loop.serverDoes(.sendFrame(started))
    loop.now += 30_000
    try loop.clientDoes(.timerFired(.ping))
    try loop.pump()
    #expect(loop.clientEvents.contains(.answered(requestId: "r-1", frame: started)))
    #expect(loop.client.state == .ready && loop.server.state == .authenticated)
    // On the wire: every frame after `connected` is sealed, in both directions.
    let connectedAt = try #require(loop.sent.firstIndex { $0.hasPrefix(#"{"type":"connected""#) })
    let after = loop.sent[(connectedAt + 1)...]
    #expect(after.count >= 5)
    for text in after { #expect(text.hasPrefix(#"{"type":"authenticated","seq":"#), "\(text)") }
    #expect(loop.client.channel?.nextSendSequence == 3, "subscribe, execute_command, ping")
    #expect(loop.server.channel?.nextReceiveSequence == 3)
  }

  // MARK: frames injected into the server

  @Test func serverRefusesAPlainFrame() throws {
    var loop = try Self.established()
    try loop.serverDoes(.frameReceived(Self.command))
    #expect(Self.serverClose(loop) == "not_authenticated")
    #expect(Self.requests(loop).isEmpty)
    #expect(loop.server.state == .closed)
  }

  @Test func serverRefusesAPlainPingAndAFakeWrapper() throws {
    var loop = try Self.established()
    try loop.serverDoes(.frameReceived(.frame("ping")))
    #expect(Self.serverClose(loop) == "not_authenticated")
    #expect(!loop.sent.last!.contains("pong"))
    var fake = try Self.established()
    let wrapper = JSONObject([
      .init(key: "type", value: "authenticated"), .init(key: "seq", value: 1),
      .init(key: "mac", value: .string(String(repeating: "0", count: 64))),
      .init(key: "frame", value: .string(JSONValue.object(Self.command).jsonText)),
    ])
    try fake.serverDoes(.frameReceived(wrapper))
    #expect(Self.serverClose(fake) == "mac_mismatch")
    #expect(Self.requests(fake).isEmpty)
  }

  @Test func serverRefusesAnAlteredFrame() throws {
    var loop = try Self.established()
    try loop.clientDoes(.send(Self.command, requestId: nil))
    var sealed = loop.toServer.removeFirst()
    let inner = try #require(sealed["frame"]?.stringValue)
    sealed["frame"] = .string(inner.replacingOccurrences(of: "rm -rf /", with: "rm -rf ~"))
    try loop.serverDoes(.frameReceived(sealed))
    #expect(Self.serverClose(loop) == "mac_mismatch")
    #expect(Self.requests(loop).isEmpty)
  }

  @Test func serverRefusesAReplayedFrame() throws {
    var loop = try Self.established()
    try loop.clientDoes(.send(Self.command, requestId: nil))
    let sealed = loop.toServer.removeFirst()
    try loop.serverDoes(.frameReceived(sealed))
    #expect(Self.requests(loop) == [.typed(Self.command)])
    try loop.serverDoes(.frameReceived(sealed))
    #expect(Self.serverClose(loop) == "replayed")
    #expect(Self.requests(loop) == [.typed(Self.command)], "the replay reached nothing")
  }

  @Test func serverRefusesReorderedFrames() throws {
    var loop = try Self.established()
    try loop.clientDoes(.send(Self.command, requestId: nil))
    try loop.clientDoes(.send(.frame("refresh_sessions"), requestId: nil))
    let second = loop.toServer.removeLast()
    try loop.serverDoes(.frameReceived(second))
    #expect(Self.serverClose(loop) == "sequence_gap")
    #expect(Self.requests(loop).isEmpty)
  }

  @Test func serverRefusesItsOwnFrameReflected() throws {
    var loop = try Self.established()
    try loop.serverDoes(.sendFrame(.frame("session_list", ["sessions": [], "total_count": 0])))
    let own = loop.toClient.removeFirst()
    #expect(own["type"] == "authenticated")
    try loop.serverDoes(.frameReceived(own))
    #expect(Self.serverClose(loop) == "mac_mismatch")
    #expect(Self.requests(loop).isEmpty)
  }

  // MARK: frames injected into the client

  @Test func clientRefusesAPlainFrame() throws {
    var loop = try Self.established()
    let injected = JSONObject.frame("session_list", ["sessions": [], "total_count": 0])
    try loop.clientDoes(.frameReceived(injected))
    #expect(Self.clientClose(loop) == "not_authenticated")
    #expect(Self.delivered(loop).isEmpty)
    #expect(loop.client.state == .backingOff)
  }

  @Test func clientRefusesAPlainVersionRefusal() throws {
    var loop = try Self.established()
    let refusal = JSONObject.frame(
      "error", ["code": "unsupported_protocol_version", "required": "9.0.0", "received": "0.5.0", "message": "x"])
    try loop.clientDoes(.frameReceived(refusal))
    #expect(Self.clientClose(loop) == "not_authenticated")
    #expect(loop.client.state == .backingOff, "an injected refusal does not park the client in upgrade_required")
  }

  @Test func clientRefusesAnAlteredFrame() throws {
    var loop = try Self.established()
    try loop.serverDoes(.sendFrame(.frame("session_list", ["sessions": [], "total_count": 0])))
    var sealed = loop.toClient.removeFirst()
    sealed["seq"] = 1
    try loop.clientDoes(.frameReceived(sealed))
    #expect(Self.clientClose(loop) == "mac_mismatch")
    #expect(Self.delivered(loop).isEmpty)
  }

  @Test func clientRefusesAReplayedFrame() throws {
    var loop = try Self.established()
    let list = JSONObject.frame("session_list", ["sessions": [], "total_count": 0])
    try loop.serverDoes(.sendFrame(list))
    let sealed = loop.toClient.removeFirst()
    try loop.clientDoes(.frameReceived(sealed))
    #expect(Self.delivered(loop) == [list])
    try loop.clientDoes(.frameReceived(sealed))
    #expect(Self.clientClose(loop) == "replayed")
    #expect(Self.delivered(loop) == [list])
  }

  @Test func clientRefusesReorderedFrames() throws {
    var loop = try Self.established()
    try loop.serverDoes(.sendFrame(.frame("session_list", ["sessions": [], "total_count": 0])))
    try loop.serverDoes(.sendFrame(.frame("recent_sessions", ["sessions": [], "limit": 5])))
    let second = loop.toClient.removeLast()
    try loop.clientDoes(.frameReceived(second))
    #expect(Self.clientClose(loop) == "sequence_gap")
    #expect(Self.delivered(loop).isEmpty)
  }

  @Test func clientRefusesItsOwnFrameReflected() throws {
    var loop = try Self.established()
    try loop.clientDoes(.send(Self.command, requestId: nil))
    let own = loop.toServer.removeFirst()
    try loop.clientDoes(.frameReceived(own))
    #expect(Self.clientClose(loop) == "mac_mismatch")
    #expect(Self.delivered(loop).isEmpty)
  }

  // MARK: the last sequence number

  @Test func aSenderOutOfSequenceNumbersCloses() throws {
    var loop = try Self.established()
    loop.client.channel?.nextSendSequence = AuthenticatedChannel.maximumSequence
    try loop.clientDoes(.send(.frame("refresh_sessions"), requestId: nil))
    #expect(loop.toServer.count == 1, "the last number is used")
    try loop.clientDoes(.send(.frame("refresh_sessions"), requestId: nil))
    #expect(loop.toServer.count == 1, "nothing more is sent")
    #expect(Self.clientClose(loop) == "sequence_exhausted")
    var server = try Self.established()
    server.server.channel?.nextSendSequence = AuthenticatedChannel.maximumSequence + 1
    try server.serverDoes(.sendFrame(.frame("session_list", ["sessions": [], "total_count": 0])))
    #expect(server.toClient.isEmpty)
    #expect(Self.serverClose(server) == "sequence_exhausted")
  }
}
