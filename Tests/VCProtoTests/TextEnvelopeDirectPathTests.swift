import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// With `compression_text` negotiated, both engines tell a text envelope from a frame by decoding
/// the text directly (an envelope's type, `compressed`, is no message type): an envelope is opened and
/// its frame decoded, a plain frame is decoded as it came, and a frame that only mentions
/// `"compressed"` in a string is that frame. An envelope whose type is spelled with an escape is an
/// envelope too (STANDARDS.md#compression: any string escapes).
@Suite struct TextEnvelopeDirectPathTests {
  /// Seals `frame` as a text envelope, whatever its length.
  static func envelope(_ frame: String) throws -> String {
    let codec = EnvelopeCodec(configuration: EnvelopeConfiguration(threshold: 0))
    return try #require(try codec.sealText(Array(frame.utf8)))
  }

  /// `text` with its envelope type written `"compr\u0065ssed"`.
  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: #""compressed""#, with: #""compr\u0065ssed""#)
  }

  static let brokenEnvelope = #"{"type":"compressed","encoding":"zlib","length":5,"data":"AAAA"}"#

  // MARK: Client

  /// A client ready on 0.5.0 (auth v1) with `compression_text`.
  static func client() throws -> ClientEngine {
    var engine = ClientEngine(
      ClientConfiguration(
        apiKey: "k", capabilities: [Capability.compressionText], allowAuthV1: true, envelopes: EnvelopeCodec()))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    _ = try engine.handle(
      .received(
        .text(
          #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i","#
            + #""capabilities":["compression_text"]}"#)), now: 0)
    _ = try engine.handle(
      .received(
        .text(
          #"{"type":"connected","message":"m","session_id":null,"negotiated_protocol_version":"0.5.0","#
            + #""capabilities":["compression_text"],"auth_version":1}"#)), now: 0)
    #expect(engine.state == .ready && engine.capabilities.contains(Capability.compressionText))
    return engine
  }

  static func received(_ actions: [ClientAction]) -> [ServerMessage] {
    actions.compactMap { if case .deliver(.received(let m)) = $0 { m } else { nil } }
  }

  static func clientViolations(_ actions: [ClientAction]) -> [ProtocolViolation] {
    actions.compactMap { if case .deliver(.violation(let v)) = $0 { v } else { nil } }
  }

  @Test func theClientOpensAnEnvelopeAndDecodesAFrameDirectly() throws {
    var engine = try Self.client()
    let frame = #"{"type":"error","message":"no such recipe"}"#
    let expected = ServerMessage.error(ErrorMessage(message: "no such recipe"))
    for text in [frame, try Self.envelope(frame), Self.escaped(try Self.envelope(frame))] {
      let actions = try engine.handle(.received(.text(text)), now: 1)
      #expect(Self.received(actions) == [expected], "\(text)")
    }
    // A frame that only mentions "compressed" in a string is that frame.
    let mentions = #"{"type":"error","message":"a {\"type\":\"compressed\"} frame"}"#
    let actions = try engine.handle(.received(.text(mentions)), now: 2)
    #expect(Self.received(actions) == [.error(ErrorMessage(message: #"a {"type":"compressed"} frame"#))])
  }

  @Test func theClientReportsAnEnvelopeThatDoesNotOpen() throws {
    var engine = try Self.client()
    let actions = try engine.handle(.received(.text(Self.brokenEnvelope)), now: 1)
    let violation = try #require(Self.clientViolations(actions).first)
    #expect(violation.messageType == "compressed" && violation.disposition == .dropped)
    #expect(violation.findings.first?.code.rawValue.hasPrefix("envelope_") == true)
    #expect(Self.received(actions).isEmpty)
  }

  // MARK: Server

  static func server() throws -> ServerEngine {
    try ServerValidationBoundaryTests.ready(capabilities: [Capability.compressionText])
  }

  @Test func theServerOpensAnEnvelopeAndDecodesAFrameDirectly() throws {
    var server = try Self.server()
    let frame = #"{"type":"prompt","text":"run the tests"}"#
    let expected = ClientMessage.prompt(.v0_3_0(PromptMessageV0_3_0(text: "run the tests")))
    for text in [frame, try Self.envelope(frame), Self.escaped(try Self.envelope(frame))] {
      let actions = try server.handle(.received(.text(text)), now: 1)
      #expect(ServerValidationBoundaryTests.requests(actions) == [expected], "\(text)")
    }
    let mentions = #"{"type":"prompt","text":"send a {\"type\":\"compressed\"} frame"}"#
    let actions = try server.handle(.received(.text(mentions)), now: 2)
    #expect(
      ServerValidationBoundaryTests.requests(actions) == [
        .prompt(.v0_3_0(PromptMessageV0_3_0(text: #"send a {"type":"compressed"} frame"#)))
      ])
  }

  @Test func theServerRefusesAnEnvelopeThatDoesNotOpen() throws {
    var server = try Self.server()
    let actions = try server.handle(.received(.text(Self.brokenEnvelope)), now: 1)
    #expect(ServerValidationBoundaryTests.requests(actions).isEmpty)
    let violation = try #require(ServerValidationBoundaryTests.violations(actions).first)
    #expect(violation.disposition == .dropped)
    #expect(violation.findings.first?.code.rawValue.hasPrefix("envelope_") == true)
    #expect(server.state == .authenticated)
  }
}
