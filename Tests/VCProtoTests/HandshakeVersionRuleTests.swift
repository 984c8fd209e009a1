import Testing

@testable import VCProto

/// The handshake's version rules of the real server (STANDARDS.md section 8), per connection version.
@Suite struct HandshakeVersionRuleTests {
  static let key = "untethered-00112233445566778899aabbccddeeff"

  func errors(_ frame: String, _ version: String) -> [String] {
    Validator(options: ValidationOptions(protocolVersion: version)).validate(frame).errors.map {
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
}
