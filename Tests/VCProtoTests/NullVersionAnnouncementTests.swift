import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `connect.protocol_version: null` means absent on every version (STANDARDS.md#negotiation): the real
/// server's parser returns nothing for a value that is not a string and gives nothing the floor, so
/// a floor-0.3.0 server answers a null announcement with a 0.3.0 connection, whose `connect` must
/// then validate. Validation, both decode paths and negotiation agree with that on 0.2.0 and 0.3.0
/// as on 0.4.0 and 0.5.0.
@Suite struct NullVersionAnnouncementTests {
  static let frame =
    #"{"type":"connect","api_key":"untethered-00112233445566778899aabbccddeeff","protocol_version":null}"#

  @Test(arguments: ProtocolVersion.allCases)
  func nullIsAcceptedAsAbsent(_ version: ProtocolVersion) throws {
    let report = Validator(options: ValidationOptions(direction: .clientToServer, version: version))
      .validate(Self.frame)
    #expect(report.findings.isEmpty, "\(version): \(report.findings)")
    for strict in [false, true] {
      let options = ValidationOptions(direction: .clientToServer, version: version, strict: strict)
      let decoded = try MessageDecoder(options: options).decode(Self.frame)
      guard case .client(.connect(let connect)) = decoded else {
        Issue.record("\(version): expected connect, got \(decoded)")
        continue
      }
      #expect(connect.protocolVersion == nil, "\(version)")
    }
    // A wrong type is still refused: null is the only non-string accepted.
    let wrong = #"{"type":"connect","api_key":"untethered-00112233445566778899aabbccddeeff","protocol_version":3}"#
    let refused = Validator(options: ValidationOptions(direction: .clientToServer, version: version))
      .validate(wrong)
    #expect(refused.errors.map(\.pointer) == ["/protocol_version"], "\(version)")
    #expect(refused.errors.map(\.code) == [.wrongType], "\(version)")
  }

  /// The real server with floor 0.3.0 (the outcome table's first row): the decoded 0.3.0 `connect`
  /// with null announces nothing, and gets 0.3.0.
  @Test func aFloor030ServerGivesANullAnnouncementVersion030() throws {
    let options = ValidationOptions(direction: .clientToServer, version: .v0_3_0)
    guard case .client(.connect(let connect)) = try MessageDecoder(options: options).decode(Self.frame) else {
      Issue.record("not a connect")
      return
    }
    let offer = ServerOffer(versions: .negotiating(floor: .v0_3_0, ceiling: .v0_5_0))
    let outcome = try Negotiator.negotiate(server: offer, client: ClientAnnouncement(connect: connect))
    #expect(try outcome.get().version == .v0_3_0)
  }
}
