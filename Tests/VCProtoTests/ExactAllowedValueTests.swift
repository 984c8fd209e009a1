import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A closed set of allowed values admits a string only when it is the same sequence of Unicode scalars
/// as one of the values, as names are compared (STANDARDS.md#exact-member-names), on every path: the
/// validator's closed-set check and the generated decoder over either reader (`JSONStringEnum.read` on
/// the tree reader and on the bytes reader, the generated `ValueRules.accepts(v, allowed:)`).
/// Swift's `String ==` is canonical equivalence, so `"cafe\u{301}"` would otherwise pass for `"caf\u{E9}"`.
/// (Every closed set of today's catalog is lowercase ASCII, which no other scalar sequence is
/// canonically equivalent to; these members are declared here to pin the rule.)
@Suite struct ExactAllowedValueTests {
  static let composed = "caf\u{E9}"
  static let decomposed = "cafe\u{301}"

  enum Drink: String, JSONStringEnum, ModelReadable {
    case cafe = "caf\u{E9}"
  }

  @Test func theTwoSpellingsAreEqualToSwift() {
    // The reason for the rule: `==` would let either stand for the other.
    #expect(Self.composed == Self.decomposed)
    #expect(Array(Self.composed.unicodeScalars) != Array(Self.decomposed.unicodeScalars))
  }

  @Test func theValidatorRefusesAnotherSpelling() throws {
    let fields = [FieldSpec("drink", .text, allowedValues: [.string(Self.composed)])]
    for (spelling, accepted) in [(Self.composed, true), (Self.decomposed, false)] {
      let object = JSONObject([JSONObject.Member(key: "drink", value: .string(spelling))])
      var sink = ValueRulesTests.Collected()
      ValueRules.checkMembers(
        object, fields: fields, extra: .warn, owner: .message("test"), skipping: nil, in: nil, into: &sink)
      #expect(sink.found.isEmpty == accepted, "\(spelling.unicodeScalars.map(\.value))")
      if !accepted {
        #expect(sink.found.map(\.pointer) == ["/drink"])
        #expect(
          sink.found.map(\.violation) == [
            .notAllowed(.string(spelling), allowed: [.string(Self.composed)], member: "drink", secret: false)
          ])
      }
    }
    // Inside a value too (an allowed array of strings), and a member name of an allowed object.
    #expect(
      !ValueRules.accepts(JSONValue.array([.string(Self.decomposed)]), allowed: [.array([.string(Self.composed)])]))
    #expect(ValueRules.accepts(JSONValue.array([.string(Self.composed)]), allowed: [.array([.string(Self.composed)])]))
    let object = { (key: String) in JSONValue.object(JSONObject([JSONObject.Member(key: key, value: .null)])) }
    #expect(!ValueRules.accepts(object(Self.decomposed), allowed: [object(Self.composed)]))
    #expect(ValueRules.accepts(object(Self.composed), allowed: [object(Self.composed)]))
  }

  @Test func theTreeReaderRefusesAnotherSpelling() {
    #expect(Drink.read(tree: .string(Self.composed)) == .cafe)
    #expect(Drink.read(tree: .string(Self.decomposed)) == nil)
  }

  @Test func theBytesReaderRefusesAnotherSpelling() {
    func pulled(_ json: String) -> Drink? {
      Array(json.utf8).withUnsafeBufferPointer { buffer in
        var p = BytesReader(buffer: buffer, limits: .default)
        return try? Drink.read(&p)
      }
    }
    // As UTF-8 and as escapes, each spelling.
    #expect(pulled("\"\(Self.composed)\"") == .cafe)
    #expect(pulled(#""caf\u00e9""#) == .cafe)
    #expect(pulled("\"\(Self.decomposed)\"") == nil)
    #expect(pulled(#""cafe\u0301""#) == nil)
    // The generated condition for a closed set the model keeps as `String`.
    #expect(ValueRules.accepts(Self.composed, allowed: [Self.composed]))
    #expect(!ValueRules.accepts(Self.decomposed, allowed: [Self.composed]))
  }
}
