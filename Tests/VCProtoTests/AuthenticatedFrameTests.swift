import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Authenticated frames end to end: both channels come from a real auth v2 handshake, and every
/// attack of STANDARDS.md#negotiation-and-auth gets its own error.
@Suite struct AuthenticatedFrameTests {
  static let key = "untethered-00112233445566778899aabbccddeeff"
  let t0 = ContinuousClock.now
  static let ping = Array(#"{"type":"ping"}"#.utf8)
  static let command = Array(#"{"type":"execute_command","command_id":"build","working_directory":"/tmp"}"#.utf8)
  static let prompt = Array(#"{"type":"prompt","text":"héllo \"x\"\n"}"#.utf8)

  /// (client channel, server channel) after a real handshake that negotiated authenticated frames.
  func channels() throws -> (AuthenticatedChannel, AuthenticatedChannel) {
    let store = ChallengeStore()
    let offer = ServerOffer(protocolVersions: ["0.2.0"], authVersions: [2], capabilities: ["authenticated_frames"])
    let hello = offer.hello(challenge: store.issue(now: t0))
    let handshake = try AuthClient(apiKey: Self.key, requireAuthenticatedFrames: true).begin(
      hello: hello, sessionId: nil, announcement: ClientAnnouncement())
    let outcome = try Negotiator.negotiate(server: offer, client: ClientAnnouncement(connect: handshake.connect)).get()
    let success = try AuthServer(apiKey: Self.key).verify(
      handshake.connect, hello: hello, store: store, outcome: outcome, sessionId: "s", now: t0
    ).get()
    let session = try handshake.complete(with: .connected(success.connected))
    return (try #require(session.channel), try #require(success.channel))
  }

  @Test func framesFlowBothWaysInOrder() throws {
    var (client, server) = try channels()
    for (i, frame) in [Self.ping, Self.command, Self.prompt].enumerated() {
      let sealed = try client.seal(frame)
      #expect(String(decoding: sealed, as: UTF8.self).hasPrefix(#"{"type":"authenticated","seq":\#(i),"mac":""#))
      #expect(try server.open(sealed) == frame)
      #expect(try client.open(try server.seal(frame)) == frame)
    }
    #expect(client.nextSendSequence == 3 && server.nextReceiveSequence == 3 && !server.isClosed)
  }

  @Test func theWireFormIsExact() throws {
    let keys = FrameKeys(clientToServer: Array(repeating: 1, count: 32), serverToClient: Array(repeating: 2, count: 32))
    var channel = AuthenticatedChannel(keys: keys, role: .client)
    let sealed = String(decoding: try channel.seal(Self.prompt), as: UTF8.self)
    let mac = Hex.encode(
      HMACSHA256.portable(
        key: Array(repeating: 1, count: 32),
        message: AuthMAC.message(
          label: "vcproto/auth/v2/frame",
          fields: [("seq", .integer(0)), ("frame", .string(String(decoding: Self.prompt, as: UTF8.self)))])))
    #expect(
      sealed == #"{"type":"authenticated","seq":0,"mac":""# + mac
        + #"","frame":"{\"type\":\"prompt\",\"text\":\"héllo \\\"x\\\"\\n\"}"}"#)
  }

  @Test func injectedPlainFrameIsRefused() throws {
    var (client, server) = try channels()
    _ = try server.open(try client.seal(Self.ping))
    #expect(throws: AuthenticatedFrameError.notAuthenticated) { try server.open(Self.command) }
    #expect(server.isClosed)
    // Closed for good: the next genuine frame is refused too.
    let next = try client.seal(Self.prompt)
    #expect(throws: AuthenticatedFrameError.channelClosed) { try server.open(next) }
  }

  @Test func alteredFramesAreRefused() throws {
    var (client, server) = try channels()
    let genuine = String(decoding: try client.seal(Self.command), as: UTF8.self)
    let alterations = [
      genuine.replacingOccurrences(of: "/tmp", with: "/etc"),  // the inner frame
      genuine.replacingOccurrences(of: #""seq":0"#, with: #""seq":1"#),  // the sequence number
    ]
    var fresh = server
    #expect(throws: AuthenticatedFrameError.macMismatch(sequence: 0)) {
      try fresh.open(Array(alterations[0].utf8))
    }
    fresh = server
    #expect(throws: AuthenticatedFrameError.macMismatch(sequence: 1)) {
      try fresh.open(Array(alterations[1].utf8))
    }
    // A frame forged under another key.
    var forger = AuthenticatedChannel(
      keys: FrameKeys(clientToServer: Array(repeating: 7, count: 32), serverToClient: Array(repeating: 7, count: 32)),
      role: .client)
    #expect(throws: AuthenticatedFrameError.macMismatch(sequence: 0)) { try server.open(try forger.seal(Self.command)) }
  }

  @Test func replayedReorderedAndDroppedFramesAreRefused() throws {
    let (c, s) = try channels()
    var client = c
    let f0 = try client.seal(Self.ping)
    let f1 = try client.seal(Self.command)
    let f2 = try client.seal(Self.prompt)

    var replay = s
    _ = try replay.open(f0)
    _ = try replay.open(f1)
    #expect(throws: AuthenticatedFrameError.replayed(sequence: 1, expected: 2)) { try replay.open(f1) }
    var replayFirst = s
    _ = try replayFirst.open(f0)
    #expect(throws: AuthenticatedFrameError.replayed(sequence: 0, expected: 1)) { try replayFirst.open(f0) }

    var reordered = s
    #expect(throws: AuthenticatedFrameError.sequenceGap(sequence: 1, expected: 0)) { try reordered.open(f1) }
    #expect(throws: AuthenticatedFrameError.channelClosed) { try reordered.open(f0) }

    var dropped = s
    _ = try dropped.open(f0)
    #expect(throws: AuthenticatedFrameError.sequenceGap(sequence: 2, expected: 1)) { try dropped.open(f2) }
  }

  @Test func reflectedFramesAreRefused() throws {
    var (client, server) = try channels()
    let own = try client.seal(Self.ping)
    #expect(throws: AuthenticatedFrameError.macMismatch(sequence: 0)) { try client.open(own) }
    let fromServer = try server.seal(Self.ping)
    var other = server
    other = AuthenticatedChannel(
      keys: FrameKeys(clientToServer: server.receiveKey, serverToClient: server.sendKey), role: .server)
    #expect(throws: AuthenticatedFrameError.macMismatch(sequence: 0)) { try other.open(fromServer) }
  }

  /// Two connections with the same key and the same inputs but fresh nonces have unrelated keys, so a
  /// frame recorded on one is refused on the other.
  @Test func framesFromAnotherConnectionAreRefused() throws {
    var (oldClient, _) = try channels()
    var (_, newServer) = try channels()
    #expect(throws: AuthenticatedFrameError.macMismatch(sequence: 0)) {
      try newServer.open(try oldClient.seal(Self.ping))
    }
  }

  @Test func malformedFramesAreRefused() throws {
    let (c, s) = try channels()
    var client = c
    let genuine = String(decoding: try client.seal(Self.ping), as: UTF8.self)
    let mac = try #require(try JSONReader().parse(genuine)["mac"]?.stringValue)
    let cases: [(String, String)] = [
      ("not JSON", #"{"type":"authenticated","#),
      ("extra member", String(genuine.dropLast()) + #","x":1}"#),
      ("seq string", genuine.replacingOccurrences(of: #""seq":0"#, with: #""seq":"0""#)),
      ("seq fraction", genuine.replacingOccurrences(of: #""seq":0"#, with: #""seq":0.0"#)),
      ("seq exponent", genuine.replacingOccurrences(of: #""seq":0"#, with: #""seq":0e0"#)),
      ("seq negative", genuine.replacingOccurrences(of: #""seq":0"#, with: #""seq":-1"#)),
      ("seq 2^53", genuine.replacingOccurrences(of: #""seq":0"#, with: #""seq":9007199254740992"#)),
      ("seq huge", genuine.replacingOccurrences(of: #""seq":0"#, with: #""seq":99999999999999999999"#)),
      ("mac uppercase", genuine.replacingOccurrences(of: mac, with: mac.uppercased())),
      ("mac short", genuine.replacingOccurrences(of: mac, with: String(mac.prefix(32)))),
      ("frame object", #"{"type":"authenticated","seq":0,"mac":"\#(String(repeating: "0", count: 64))","frame":{}}"#),
      ("duplicate seq", String(genuine.dropLast()) + #","seq":0}"#),
    ]
    for (what, text) in cases {
      var server = s
      do {
        _ = try server.open(Array(text.utf8))
        Issue.record("\(what): accepted")
      } catch {
        if case .malformed = error {} else { Issue.record("\(what): \(error)") }
      }
      #expect(server.isClosed, "\(what)")
    }
  }

  /// A receiver reads the frame, not its spelling: member order, whitespace and escapes are free.
  @Test func anySpellingOfAGenuineFrameIsAccepted() throws {
    var (client, server) = try channels()
    let sealed = try JSONReader().parse(try client.seal(Self.ping))
    let mac = try #require(sealed["mac"]?.stringValue)
    let respelled = #"{ "frame" : "{\"type\":\"ping\"}", "mac":"\#(mac)","seq" : 0 ,"type":"authent\u0069cated"}"#
    #expect(try server.open(Array(respelled.utf8)) == Self.ping)
  }

  @Test func senderLimits() throws {
    var (client, _) = try channels()
    #expect(throws: AuthenticatedFrameError.frameNotUTF8) { try client.seal([0x7B, 0xFF, 0x7D]) }
    client.nextSendSequence = AuthenticatedChannel.maximumSequence
    _ = try client.seal(Self.ping)  // the last number is usable
    #expect(throws: AuthenticatedFrameError.sequenceExhausted) { try client.seal(Self.ping) }
  }

  /// The keys per STANDARDS.md#negotiation-and-auth, rebuilt here from HKDF's definition (RFC 5869) over the
  /// portable HMAC, with the salt and info written field by field.
  @Test func keysAreHKDFOverTheHandshake() throws {
    let connected = ConnectedMessage(
      message: "Session registered", sessionId: "s", negotiatedProtocolVersion: "0.2.0",
      capabilities: ["authenticated_frames"], authVersion: 2, serverProof: "ab")
    let keys = FrameKeys.derive(apiKey: "k", challenge: "c", clientNonce: "n", authResponse: "r", connected: connected)
    let salt =
      Array("vcproto/auth/v2/frames/salt".utf8) + [0] + [0, 0, 0, 9] + Array("challenge".utf8) + [1, 0, 0, 0, 1]
      + Array("c".utf8) + [0, 0, 0, 12] + Array("client_nonce".utf8) + [1, 0, 0, 0, 1] + Array("n".utf8)
    #expect(FrameKeys.salt(challenge: "c", clientNonce: "n") == salt)
    let prk = HMACSHA256.portable(key: salt, message: Array("k".utf8))
    for (direction, key) in [("client_to_server", keys.clientToServer), ("server_to_client", keys.serverToClient)] {
      let info = FrameKeys.info(direction: direction, authResponse: "r", connected: connected)
      #expect(key == HMACSHA256.portable(key: prk, message: info + [1]), "\(direction)")
    }
    #expect(keys.clientToServer != keys.serverToClient)
  }
}
