import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Which path a decoder takes is chosen from its options and what its logger records, and either way
/// the log says what it promises.
@Suite struct DecodeStrategyTests {
  final class Sink: @unchecked Sendable {
    let records = Locked<[LogRecord]>([])
    var all: [LogRecord] { records.withLock { $0 } }
  }

  func logger(_ level: LogLevel, _ sink: Sink) -> ProtocolLogger {
    ProtocolLogger(minimumLevel: level) { record in sink.records.withLock { $0.append(record) } }
  }

  @Test func theChoiceFollowsStrictnessAndTheLoggersLevel() {
    let sink = Sink()
    #expect(MessageDecoder(options: ValidationOptions(version: .v0_2_0)).strategy == .fast)
    #expect(MessageDecoder(options: ValidationOptions(version: .v0_2_0, strict: true)).strategy == .validated)
    #expect(
      MessageDecoder(options: ValidationOptions(version: .v0_2_0), logger: logger(.info, sink)).strategy == .validated)
    #expect(
      MessageDecoder(options: ValidationOptions(version: .v0_2_0), logger: logger(.debug, sink)).strategy == .validated)
    // A logger that records only warnings and errors does not need every frame validated: the
    // validator still runs, and logs, for every frame that fails.
    #expect(
      MessageDecoder(options: ValidationOptions(version: .v0_2_0), logger: logger(.warning, sink)).strategy == .fast)
    // Not the identity of the logger: a new silent-level logger is as fast as `.silent`.
    #expect(
      MessageDecoder(options: ValidationOptions(version: .v0_2_0), logger: logger(.error, sink)).strategy == .fast)
  }

  @Test func aFastDecoderStillLogsEveryMissingField() {
    let sink = Sink()
    let decoder = MessageDecoder(options: ValidationOptions(version: .v0_2_0), logger: logger(.warning, sink))
    #expect(throws: DecodingFailure.self) { try decoder.decode(#"{"type":"subscribe"}"#) }
    #expect(sink.all.map(\.code) == [.missingField])
    #expect(sink.all.first?.pointer == "/session_id")
  }

  @Test func aValidatingDecoderLogsTheUnknownTypeOfAFrameThatDecodes() throws {
    let sink = Sink()
    let decoder = MessageDecoder(options: ValidationOptions(version: .v0_2_0), logger: logger(.info, sink))
    guard case .unknown = try decoder.decode(#"{"type":"from_the_future","x":1}"#) else {
      Issue.record("an unknown type decodes to .unknown")
      return
    }
    #expect(sink.all.map(\.code) == [.unknownType])
  }

  /// An engine asks the decoder's direct path, held apart (`MessageDecoder.DirectPath`), then the
  /// decoder off that path: together they give ``MessageDecoder/decode(_:)``'s result on every vector,
  /// valid or not, in both directions and none; and there is no direct path where `decode` takes none.
  @Test func theDirectPathHeldApartThenTheRestIsDecode() throws {
    let sink = Sink()
    #expect(MessageDecoder(options: ValidationOptions(version: .v0_2_0, strict: true)).directPath == nil)
    #expect(MessageDecoder(options: ValidationOptions(version: .v0_2_0), logger: logger(.info, sink)).directPath == nil)
    #expect(
      MessageDecoder(options: ValidationOptions(version: .v0_5_0, negotiatedCapabilities: ["heartbeat"])).directPath
        == nil)
    #expect(MessageDecoder(options: ValidationOptions(version: .v0_5_0)).directPath != nil)
    var direct = 0
    var rest = 0
    for v in try MessageVectorTests.vectors() {
      let version = ProtocolVersion(rawValue: v.protocol_version)!
      for direction in [nil, MessageDirection.clientToServer, .serverToClient] {
        let decoder = MessageDecoder(options: ValidationOptions(direction: direction, version: version))
        let bytes = Array(v.frame.utf8)
        let expected = Result { () throws(DecodingFailure) in try decoder.decode(bytes) }
        let got: Result<AnyMessage, DecodingFailure>
        if let message = decoder.directPath?.decode(bytes) {
          got = .success(message)
          direct += 1
        } else {
          got = Result { () throws(DecodingFailure) in try decoder.decodeOffTheDirectPath(bytes) }
          rest += 1
        }
        switch (expected, got) {
        case (.success(let a), .success(let b)): #expect(a == b, "\(v.id)")
        case (.failure(let a), .failure(let b)): #expect(a.findings == b.findings, "\(v.id)")
        default: Issue.record("\(v.id): \(expected) but \(got)")
        }
      }
    }
    #expect(direct >= 200)
    #expect(rest >= 200)
  }
}
