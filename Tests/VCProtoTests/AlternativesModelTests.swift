import Testing
import VCProtoCodegen

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A member of alternative types (0.3.0 `session_updated.messages[]`: a `HistoryMessage` or a raw
/// Claude record, STANDARDS.md#message-reference) is typed as an enum with one case per alternative, and the
/// case is the first alternative, in the order the catalog lists them, that the element satisfies
/// completely (STANDARDS.md#message-reference, introduction).
@Suite struct AlternativesModelTests {
  static let options = ValidationOptions(version: .v0_3_0)
  /// Decoders on each path: direct first (bytes straight into structs), then the tree path (a logger that
  /// records warnings makes the decoder ask the validator first).
  static let decoders = [
    MessageDecoder(options: options),
    MessageDecoder(options: options, logger: ProtocolLogger(minimumLevel: .info) { _ in }),
  ]

  static func frame(_ elements: [String]) -> String {
    #"{"type":"session_updated","session_id":"s","messages":["# + elements.joined(separator: ",") + "]}"
  }

  static func object(_ text: String) throws -> JSONObject {
    let value = try JSONReader().parse(text)
    return try #require(value.objectValue)
  }

  /// The four ways an element can go: canonical message, raw record, both (the first wins), and a
  /// message-like object whose `role` is outside HistoryMessage's closed set but which is a valid raw
  /// record (it has the record's required `type`, and its `timestamp` is a string: a record's may not
  /// be null).
  static let canonical = #"{"uuid":"u1","role":"user","text":"hi","timestamp":null,"provider":"claude"}"#
  static let record = #"{"type":"assistant","uuid":"r1","message":{"role":"assistant","content":"yo"}}"#
  static let both = #"{"uuid":"u2","role":"assistant","text":"t","timestamp":"x","provider":"copilot","type":"user"}"#
  static let recordOnly = #"{"uuid":"u3","role":"robot","text":"t","timestamp":"x","provider":"claude","type":"user"}"#

  @Test func eachElementTakesTheFirstAlternativeItSatisfies() throws {
    let text = Self.frame([Self.canonical, Self.record, Self.both, Self.recordOnly])
    #expect(Validator(options: Self.options).validate(text).isValid)
    let expected: [HistoryMessageOrClaudeRecord] = [
      .historyMessage(HistoryMessage(uuid: "u1", role: .user, text: "hi", timestamp: nil, provider: "claude")),
      .claudeRecord(ClaudeRecord(raw: try Self.object(Self.record))),
      .historyMessage(
        HistoryMessage(
          uuid: "u2", role: .assistant, text: "t", timestamp: "x", provider: "copilot",
          additionalMembers: JSONObject([JSONObject.Member(key: "type", value: .string("user"))]))),
      .claudeRecord(ClaudeRecord(raw: try Self.object(Self.recordOnly))),
    ]
    for decoder in Self.decoders {
      let message = try decoder.decode(text)
      guard case .server(.sessionUpdated(.v0_3_0(let updated))) = message else {
        Issue.record("decoded as \(message)")
        continue
      }
      #expect(updated.messages == expected)
    }
    // The direct path really decodes it (no detour through the tree).
    #expect(Self.decoders[0].directBuild(Array(text.utf8)) != nil)
  }

  /// Decode then encode gives back the frame's bytes: canonical messages in catalog order, records
  /// exactly as received (their members in wire order), additional members after the declared ones.
  @Test func encodeRoundTripsByteForByte() throws {
    let text = Self.frame([Self.canonical, Self.record, Self.both, #"{"message":{"content":[1]},"type":"user"}"#])
    for decoder in Self.decoders {
      let message = try decoder.decode(text)
      #expect(MessageEncoder().encodeText(message) == text)
    }
  }

  /// The choice against an oracle built from each alternative alone: the generated `HistoryMessage`
  /// decodes the element (validator-equivalent, its own tests), else a 0.2.0 `session_updated`, whose
  /// elements are raw records only, is valid with it; else the 0.3.0 frame is refused.
  @Test(arguments: [
    canonical, record, both, recordOnly,
    #"{"uuid":"u","role":"user","text":"t","timestamp":null,"provider":"claude","extra":[1]}"#,
    #"{"uuid":"u","role":"user","text":"t","timestamp":null}"#,
    #"{"uuid":"u","role":"user","text":"t","timestamp":null,"type":"user"}"#,
    #"{"type":"user","message":null}"#,
    #"{"type":"user","message":{"content":[null]}}"#,
    #"{"type":7}"#,
    #"{}"#,
    #"[]"#,
    #""text""#,
    #"null"#,
  ])
  func theChoiceMatchesEachAlternativeAlone(_ element: String) throws {
    let value = try JSONReader().parse(element)
    var expected: HistoryMessageOrClaudeRecord?
    if let message = HistoryMessage.read(tree: value) {
      expected = .historyMessage(message)
    } else if case .object(let object) = value,
      Validator(options: ValidationOptions(version: .v0_2_0)).validate(
        #"{"type":"session_updated","session_id":"s","messages":[\#(element)]}"#
      ).isValid
    {
      expected = .claudeRecord(ClaudeRecord(raw: object))
    }
    let text = Self.frame([element])
    #expect(Validator(options: Self.options).validate(text).isValid == (expected != nil))
    for decoder in Self.decoders {
      let decoded = Result { () throws(DecodingFailure) in try decoder.decode(text) }
      switch decoded {
      case .success(.server(.sessionUpdated(.v0_3_0(let updated)))):
        #expect(updated.messages == expected.map { [$0] }, "\(element)")
      case .failure:
        #expect(expected == nil, "\(element) was refused")
      case .success(let other):
        Issue.record("\(element) decoded as \(other)")
      }
    }
  }

  /// Read from a tree, an element of neither alternative is refused; the validator names it.
  @Test func aRefusedElementIsNamed() throws {
    let text = Self.frame([Self.canonical, #"{"uuid":"u"}"#])
    #expect(SessionUpdatedMessageV0_3_0.read(tree: .object(try Self.object(text))) == nil)
    let errors = Validator(options: Self.options).validate(text).findings.filter { $0.severity == .error }
    #expect(!errors.isEmpty)
    #expect(errors.allSatisfy { $0.pointer.hasPrefix("/messages/1") }, "\(errors)")
  }

  /// Which alternatives the generator types as an enum: each needs a Swift type of its own, distinct
  /// from the others' (the case is then unambiguous); otherwise the member stays `JSONValue` and must be
  /// listed in TheTypedModel.md (UntypedMemberTests).
  @Test func whichAlternativesAreTyped() {
    #expect(SwiftModelGenerator.typesAlternatives([.shape("HistoryMessage"), .shape("ClaudeRecord")]))
    #expect(SwiftModelGenerator.typesAlternatives([.text, .int, .array(.shape("CommandNode"))]))
    #expect(!SwiftModelGenerator.typesAlternatives([.text, .string(.uuid)]), "two strings: one Swift type")
    #expect(!SwiftModelGenerator.typesAlternatives([.text, .array(.any)]), "any has no Swift type of its own")
    let generated = SwiftModelGenerator().alternativeEnums
    #expect(generated.map(\.name) == ["HistoryMessageOrClaudeRecord"])
    #expect(generated.first?.alternatives.map(\.caseName) == ["historyMessage", "claudeRecord"])
    #expect(generated.first?.versions == [.v0_3_0])
  }

  /// Strict mode (TheTypedModel.md): the undeclared `type` rules the canonical alternative out for the
  /// strict validator, which accepts the element as a raw record; the decoder accepts the frame too,
  /// and the model's choice stays the default rules' one, the member kept.
  @Test func strictModeKeepsTheVerdictAndTheDefaultChoice() throws {
    let strict = ValidationOptions(version: .v0_3_0, strict: true)
    let text = Self.frame([Self.both])
    #expect(Validator(options: strict).validate(text).findings.isEmpty)
    let message = try MessageDecoder(options: strict).decode(text)
    guard case .server(.sessionUpdated(.v0_3_0(let updated))) = message,
      case .historyMessage(let canonical)? = updated.messages.first
    else {
      Issue.record("decoded as \(message)")
      return
    }
    #expect(canonical.additionalMembers["type"] == .string("user"))
    // An element neither alternative accepts under strict rules is refused by both.
    let neither = Self.frame([#"{"uuid":"u","role":"user","text":"t","timestamp":null,"provider":"claude","x":1}"#])
    #expect(!Validator(options: strict).validate(neither).isValid)
    #expect(throws: DecodingFailure.self) { try MessageDecoder(options: strict).decode(neither) }
  }
}
