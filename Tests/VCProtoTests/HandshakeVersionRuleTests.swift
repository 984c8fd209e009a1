import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The handshake's version rules of the real server (STANDARDS.md#negotiation), per connection version.
@Suite struct HandshakeVersionRuleTests {
  static let key = "untethered-00112233445566778899aabbccddeeff"

  func errors(_ frame: String, _ version: String) -> [String] {
    Validator(options: ValidationOptions(version: ProtocolVersion(rawValue: version)!)).validate(frame).errors.map {
      "\($0.code.rawValue) \($0.pointer)"
    }
  }

  func hello(_ version: String) -> String {
    #"{"type":"hello","message":"Welcome to voice-code backend","version":"\#(version)","auth_version":1,"instructions":"Send connect message with api_key"}"#
  }

  func connect(_ announced: String) -> String {
    #"{"type":"connect","api_key":"\#(Self.key)","protocol_version":"\#(announced)"}"#
  }

  @Test func helloAdvertisesACeilingNoLowerThanTheConnectionsVersion() {
    #expect(errors(hello("0.4.0"), "0.5.0") == ["invalid_value /version"])
    #expect(errors(hello("0.3.0"), "0.4.0") == ["invalid_value /version"])
    #expect(errors(hello("0.5.0"), "0.4.0").isEmpty)  // the ceiling is above a 0.4.0 channel
    #expect(errors(hello("0.5.0"), "0.5.0").isEmpty)
    #expect(errors(hello("0.2.0"), "0.2.0").isEmpty)
  }

  @Test func aClientBelowTheGuardIsRefusedFrom040On() {
    #expect(errors(connect("0.3.0"), "0.4.0") == ["invalid_value /protocol_version"])
    #expect(errors(connect("0.3.9-rc1"), "0.5.0") == ["invalid_value /protocol_version"])
    #expect(errors(connect("0.4.0"), "0.4.0").isEmpty)
    // The real server takes any string: unparseable gets the floor, a suffix is cut off.
    #expect(errors(connect("abc"), "0.4.0").isEmpty)
    #expect(errors(connect("0.4"), "0.4.0").isEmpty)
    #expect(errors(connect("0.5.0-rc1"), "0.5.0").isEmpty)
  }

  // MARK: - The direct decode path checks the same rules

  /// The direct path (straight from bytes) against the validator on one frame of a connection of
  /// `version`: it decodes exactly the frames the validator finds no error in, to the tree path's message.
  func expectDirectAgrees(
    _ frame: String, _ version: String, maxHandshakeListItems: Int = ValidationOptions.defaultMaxHandshakeListItems,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let options = ValidationOptions(
      version: ProtocolVersion(rawValue: version)!, maxHandshakeListItems: maxHandshakeListItems)
    let valid = Validator(options: options).validate(frame).errors.isEmpty
    let direct = MessageDecoder(options: options).directBuild(Array(frame.utf8))
    #expect((direct != nil) == valid, "\(version): \(frame)", sourceLocation: sourceLocation)
    if let direct {
      let tree = MessageDecoder(options: options, logger: ProtocolLogger(minimumLevel: .info) { _ in })
      #expect(direct == (try? tree.decode(frame)), "\(version): \(frame)", sourceLocation: sourceLocation)
    }
  }

  @Test func theDirectPathChecksTheVersionRules() {
    for version in ProtocolVersion.allStrings {
      for ceiling in ProtocolVersion.allStrings + ["0.10.0", "1.0.0"] { expectDirectAgrees(hello(ceiling), version) }
      for announced in ["0.2.0", "0.3.0", "0.3.9-rc1", "0.4.0", "abc", "0.4", "0.5.0-rc1", ""] {
        expectDirectAgrees(connect(announced), version)
      }
    }
    // A refused announcement is refused on the direct path too (not merely agreed on).
    let v050 = MessageDecoder(options: ValidationOptions(version: .v0_5_0))
    #expect(v050.directBuild(Array(connect("0.3.0").utf8)) == nil)
    #expect(v050.directBuild(Array(connect("0.5.0").utf8)) != nil)
    #expect(v050.directBuild(Array(hello("0.4.0").utf8)) == nil)
    #expect(v050.directBuild(Array(hello("0.5.0").utf8)) != nil)
  }

  /// The one struct of a handshake message admits what any version admits (null `session_id`, no
  /// `negotiated_protocol_version`); its direct path still checks the connection's version's own rules.
  @Test func theDirectPathChecksEachVersionsPresenceAndNulls() {
    let connectedNull = #"{"type":"connected","message":"Session registered","session_id":null}"#
    let connectedNegotiated =
      #"{"type":"connected","message":"Session registered","session_id":"s","negotiated_protocol_version":"0.4.0"}"#
    let connectNull = #"{"type":"connect","api_key":"\#(Self.key)","protocol_version":null}"#
    for version in ProtocolVersion.allStrings {
      for frame in [connectedNull, connectedNegotiated, connectNull] { expectDirectAgrees(frame, version) }
    }
    func direct(_ frame: String, _ version: String) -> Bool {
      MessageDecoder(options: ValidationOptions(version: ProtocolVersion(rawValue: version)!)).directBuild(
        Array(frame.utf8)) != nil
    }
    // session_id became nullable in 0.3.0; negotiated_protocol_version required in 0.4.0 (STANDARDS.md's
    // version history); a null protocol_version means absent on every version (STANDARDS.md#negotiation).
    #expect(!direct(connectedNull, "0.2.0") && direct(connectedNull, "0.3.0"))
    #expect(!direct(connectedNull, "0.4.0"))  // a 0.4.0 connected names its version
    #expect(direct(connectedNegotiated, "0.2.0") && direct(connectedNegotiated, "0.5.0"))
    #expect(ProtocolVersion.allStrings.allSatisfy { direct(connectNull, $0) })
  }

  @Test func theDirectPathBoundsHandshakeLists() {
    func connect(capabilities n: Int) -> String {
      let list = (0..<n).map { "\"cap\($0)\"" }.joined(separator: ",")
      return #"{"type":"connect","api_key":"\#(Self.key)","capabilities":[\#(list)]}"#
    }
    func hello(authVersions n: Int) -> String {
      #"{"type":"hello","message":"Welcome to voice-code backend","version":"0.5.0","auth_version":1,"#
        + #""instructions":"Send connect message with api_key","auth_versions":["#
        + (0..<n).map { _ in "1" }.joined(separator: ",") + "]}"
    }
    let limit = ValidationOptions.defaultMaxHandshakeListItems
    for version in ProtocolVersion.allStrings {
      for n in [0, limit, limit + 1] {
        expectDirectAgrees(connect(capabilities: n), version)
        expectDirectAgrees(hello(authVersions: n), version)
      }
      // The decoder's own bound, not a fixed one.
      for n in [3, 4] {
        expectDirectAgrees(connect(capabilities: n), version, maxHandshakeListItems: 3)
        expectDirectAgrees(hello(authVersions: n), version, maxHandshakeListItems: 3)
      }
    }
    let strict = MessageDecoder(options: ValidationOptions(version: .v0_2_0, maxHandshakeListItems: 3))
    #expect(strict.directBuild(Array(connect(capabilities: 3).utf8)) != nil)
    #expect(strict.directBuild(Array(connect(capabilities: 4).utf8)) == nil)
  }
}
