import Testing
import VCProtoConnection
import VCProtoCore
import VCProtoJSON

/// The connection module without the envelope module (this target depends on VCProtoConnection
/// alone, so nothing here links zlib): an engine with no ``EnvelopeOpening`` never offers or asks for
/// compression, whatever its capabilities say, and refuses an envelope as not negotiated; one with an
/// opener negotiates the forms it opens and opens envelopes through it.
@Suite struct EnginesWithoutEnvelopesTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"
  /// `{"type":"ping"}` in a binary envelope (zlib), STANDARDS.md#envelope-binary's example.
  static let binaryPing: [UInt8] = [
    0x56, 0x43, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x0f, 0x78, 0x9c, 0xab, 0x56, 0x2a, 0xa9, 0x2c, 0x48, 0x55, 0xb2,
    0x52, 0x2a, 0xc8, 0xcc, 0x4b, 0x57, 0xaa, 0x05, 0x00, 0x29, 0xbd, 0x05, 0x2b,
  ]
  /// The same frame in a text envelope, STANDARDS.md#envelope-text's example.
  static let textPing =
    #"{"type":"compressed","encoding":"zlib","length":15,"data":"eJyrViqpLEhVslIqyMxLV6oFACm9BSs="}"#

  /// Opens binary envelopes only, without zlib: every envelope holds the frame it was made with.
  struct BinaryOnly: EnvelopeOpening {
    var frame: [UInt8]
    var openedForms: Set<EnvelopeForm> { [.binary] }
    func open(binary bytes: [UInt8]) throws(EnvelopeError) -> [UInt8] { frame }
    func open(textEnvelope object: JSONObject) throws(EnvelopeError) -> [UInt8] { throw .malformed }
  }

  static func sent(_ actions: [ServerAction]) throws -> [JSONObject] {
    try actions.compactMap {
      guard case .send(.text(let bytes)) = $0 else { return nil }
      return try JSONReader().parse(bytes).objectValue
    }
  }

  /// A server offering every capability, authenticated with a client that asks for every one.
  static func server(_ envelopes: (any EnvelopeOpening)?) throws -> (ServerEngine, hello: JSONObject) {
    var engine = ServerEngine(
      ServerConfiguration(
        offer: ServerOffer(versions: .negotiating(floor: .v0_4_0, ceiling: .v0_5_0), capabilities: Capability.all),
        apiKey: key, envelopes: envelopes))
    let hello = try #require(try sent(try engine.handle(.transportOpened(challenge: nil), now: 0)).first)
    let asks = Capability.all.map { #""\#($0)""# }.joined(separator: ",")
    let connect = #"{"type":"connect","api_key":"\#(key)","protocol_version":"0.5.0","capabilities":[\#(asks)]}"#
    _ = try engine.handle(.received(.text(connect)), now: 0)
    #expect(engine.state == .authenticated)
    return (engine, hello)
  }

  static func listed(_ object: JSONObject) -> [String] {
    object["capabilities"]?.arrayValue?.compactMap(\.stringValue) ?? []
  }

  @Test func aServerWithoutEnvelopesOffersNoCompressionAndRefusesEnvelopes() throws {
    var (server, hello) = try Self.server(nil)
    #expect(Self.listed(hello) == Capability.all.filter { !$0.hasPrefix("compression_") })
    #expect(server.configuration.offer.capabilities.allSatisfy { !$0.hasPrefix("compression_") })
    #expect(server.outcome?.capabilities.contains { $0.hasPrefix("compression_") } == false)

    let binary = try server.handle(.received(.binary(Self.binaryPing)), now: 1)
    let violations = binary.compactMap { if case .deliver(.violation(let v)) = $0 { v } else { nil } }
    #expect(violations.map(\.disposition) == [.dropped])
    #expect(violations.first?.findings.map(\.code) == [.extensionNotNegotiated])
    #expect(server.state == .authenticated)
    // A text envelope is not opened: its type is no message type, and no pong answers it.
    let text = try server.handle(.received(.text(Self.textPing)), now: 2)
    #expect(try Self.sent(text).allSatisfy { $0["type"]?.stringValue != "pong" })
  }

  @Test func aServerOffersAndOpensTheFormsItsOpenerOpens() throws {
    var (server, hello) = try Self.server(BinaryOnly(frame: Array(#"{"type":"ping"}"#.utf8)))
    #expect(Self.listed(hello).contains(Capability.compressionBinary))
    #expect(!Self.listed(hello).contains(Capability.compressionText))
    let actions = try server.handle(.received(.binary(Array("VC anything".utf8))), now: 1)
    #expect(try Self.sent(actions).map { $0["type"]?.stringValue } == ["pong"])
  }

  /// A client asking for every capability, after the server's `hello` offering every one: its `connect`.
  static func client(_ envelopes: (any EnvelopeOpening)?) throws -> (ClientEngine, connect: JSONObject) {
    var engine = ClientEngine(
      ClientConfiguration(apiKey: key, capabilities: Capability.all, allowAuthV1: true, envelopes: envelopes))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    let offers = Capability.all.map { #""\#($0)""# }.joined(separator: ",")
    let actions = try engine.handle(
      .received(
        .text(
          #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i","#
            + #""capabilities":[\#(offers)]}"#)), now: 0)
    let connect = try #require(
      try actions.compactMap { action -> JSONObject? in
        guard case .send(.text(let bytes)) = action else { return nil }
        return try JSONReader().parse(bytes).objectValue
      }.first)
    return (engine, connect)
  }

  @Test func aClientWithoutEnvelopesAsksForNoCompressionAndRefusesEnvelopes() throws {
    var (client, connect) = try Self.client(nil)
    #expect(Self.listed(connect) == Capability.all.filter { !$0.hasPrefix("compression_") })
    // Everything asked for but authenticated frames (auth v2 only).
    let granted = Self.listed(connect).filter { $0 != Capability.authenticatedFrames }.map { #""\#($0)""# }
      .joined(separator: ",")
    _ = try client.handle(
      .received(
        .text(
          #"{"type":"connected","message":"m","session_id":null,"negotiated_protocol_version":"0.5.0","#
            + #""capabilities":[\#(granted)],"auth_version":1}"#)), now: 0)
    #expect(client.state == .ready)
    let actions = try client.handle(.received(.binary(Self.binaryPing)), now: 1)
    let violations = actions.compactMap { if case .deliver(.violation(let v)) = $0 { v } else { nil } }
    #expect(violations.first?.findings.map(\.code) == [.extensionNotNegotiated])
    #expect(client.state == .ready)
  }

  @Test func aClientAsksForTheFormsItsOpenerOpens() throws {
    let (_, connect) = try Self.client(BinaryOnly(frame: []))
    #expect(Self.listed(connect).contains(Capability.compressionBinary))
    #expect(!Self.listed(connect).contains(Capability.compressionText))
  }
}
