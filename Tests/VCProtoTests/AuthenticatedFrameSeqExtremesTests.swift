import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The one integer of a sealed frame (`authenticated.seq`, not a catalog member, so outside
/// `IntegerExtremeSweepTests`) at the edges of 64 bits, into both engines on a connection that
/// negotiated `authenticated_frames`, each with a MAC that is right for that seq whenever one can
/// be (0 to 2^53 - 1): nothing traps, the one seq due is opened, and every other closes the
/// connection with a STANDARDS.md#negotiation-and-auth code (a seq outside 0 to 2^53 - 1 is `malformed`) and
/// reaches no application (issue 29).
@Suite struct AuthenticatedFrameSeqExtremesTests {
  static let extremes: [Int64] = [
    .min, .min + 1, -1, 0, 1, 9_007_199_254_740_991, 9_007_199_254_740_993, .max - 1, .max,
  ]
  static let codes: Set<String> = ["not_authenticated", "malformed", "mac_mismatch", "replayed", "sequence_gap"]

  static func wrapper(_ seq: Int64, inner: JSONObject, key: [UInt8]) throws -> JSONObject {
    let text = JSONValue.object(inner).jsonText
    let mac =
      (0...Int64(AuthenticatedChannel.maximumSequence)).contains(seq)
      ? AuthenticatedChannel.mac(key: key, sequence: UInt64(seq), frame: text) : String(repeating: "0", count: 64)
    return JSONObject([
      .init(key: "type", value: "authenticated"),
      .init(key: "seq", value: try JSONReader().parse(Array("\(seq)".utf8))),
      .init(key: "mac", value: .string(mac)), .init(key: "frame", value: .string(text)),
    ])
  }

  @Test(arguments: extremes)
  func intoTheServer(seq: Int64) throws {
    var loop = try AuthenticatedFramesLoopbackTests.established()
    let client = try #require(loop.client.channel)
    let due = try #require(loop.server.channel?.nextReceiveSequence)
    let command = AuthenticatedFramesLoopbackTests.command
    try loop.serverDoes(.frameReceived(try Self.wrapper(seq, inner: command, key: client.sendKey)))
    if seq >= 0, UInt64(seq) == due {
      #expect(AuthenticatedFramesLoopbackTests.requests(loop) == [.typed(command)])
    } else {
      #expect(Self.codes.contains(AuthenticatedFramesLoopbackTests.serverClose(loop) ?? "none"), "seq \(seq)")
      #expect(AuthenticatedFramesLoopbackTests.requests(loop).isEmpty)
    }
  }

  @Test(arguments: extremes)
  func intoTheClient(seq: Int64) throws {
    var loop = try AuthenticatedFramesLoopbackTests.established()
    let server = try #require(loop.server.channel)
    let due = try #require(loop.client.channel?.nextReceiveSequence)
    let before = AuthenticatedFramesLoopbackTests.delivered(loop).count
    let list = JSONObject.frame("session_list", ["sessions": [], "total_count": 0])
    try loop.clientDoes(.frameReceived(try Self.wrapper(seq, inner: list, key: server.sendKey)))
    if seq >= 0, UInt64(seq) == due {
      #expect(AuthenticatedFramesLoopbackTests.delivered(loop).count == before + 1)
    } else {
      #expect(Self.codes.contains(AuthenticatedFramesLoopbackTests.clientClose(loop) ?? "none"), "seq \(seq)")
      #expect(AuthenticatedFramesLoopbackTests.delivered(loop).count == before)
    }
  }
}
