import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A finding's invariants hold however it was made: its text is redacted, and it is immutable.
@Suite struct FindingTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"

  @Test func aFindingDecodedFromJSONIsRedactedLikeOneMadeInCode() throws {
    let json = """
      {"severity":"error","code":"unexpected_field","pointer":"/\(Self.key)","messageType":"\(Self.key)",
       "message":"member \(Self.key) is not declared"}
      """
    let finding = try JSONDecoder().decode(Finding.self, from: Data(json.utf8))
    #expect(!finding.pointer.contains(Self.key))
    #expect(finding.messageType?.contains(Self.key) == false)
    #expect(!finding.message.contains(Self.key))
    #expect(finding.code == .unexpectedField)
    #expect(finding.severity == .error)
  }

  @Test func aFindingRoundTripsThroughJSON() throws {
    let finding = Finding(.warning, .unknownType, pointer: "/type", messageType: "x", message: "unknown", offset: 3)
    let copy = try JSONDecoder().decode(Finding.self, from: JSONEncoder().encode(finding))
    #expect(copy == finding)
  }

  @Test func changingTheSeverityKeepsEverythingElse() {
    let finding = Finding(.warning, .unexpectedField, pointer: "/a", messageType: "ping", message: "m", offset: 1)
    let error = finding.with(severity: .error)
    #expect(error.severity == .error)
    #expect(error.code == finding.code && error.pointer == finding.pointer && error.message == finding.message)
    #expect(error.messageType == finding.messageType && error.offset == finding.offset)
  }

  @Test func theWholeFramePrintsAsRootNotAsTheMemberNamedEmpty() {
    let root = Finding(.error, .notAnObject, pointer: "", message: "not an object")
    #expect(root.description == "error not_an_object (root): not an object")
    let empty = Finding(.error, .wrongType, pointer: "/", message: "m")
    #expect(empty.description == "error wrong_type /: m")
  }
}
