import Testing
import VCProtoCodegen

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The closed sets the protocol defines are Swift enums in the typed model: their cases are exactly the
/// catalog's `allowedValues`, every value round-trips, and a value outside the set fails decoding with
/// the finding the validator reports.
@Suite struct ClosedSetTests {
  /// One member the model types as a nested enum: where it is in the catalog, the Swift enum's raw
  /// values, a valid frame around a value (as a JSON token) and how to read the decoded value back.
  struct Site: Sendable, CustomTestStringConvertible {
    var owner: String  // message type or shape name
    var field: String
    var cases: [String]
    var type: String
    var body: @Sendable (String) -> String  // the frame's members after `type`, with the value token in place
    var pointer: String
    var read: @Sendable (ServerMessage) -> String?

    var testDescription: String { "\(owner).\(field)" }

    /// The frame with `type` first (the direct decode path) or last (the tree path).
    func frame(_ token: String, typeFirst: Bool = true) -> String {
      typeFirst ? #"{"type":"\#(type)",\#(body(token))}"# : #"{\#(body(token)),"type":"\#(type)"}"#
    }
  }

  static let sites: [Site] = [
    Site(
      owner: "command_output", field: "stream", cases: CommandOutputMessage.Stream.allCases.map(\.rawValue),
      type: "command_output", body: { #""command_session_id":"cmd-1","stream":\#($0),"text":"ok""# },
      pointer: "/stream",
      read: { if case .commandOutput(let m) = $0 { m.stream.rawValue } else { nil } }),
    Site(
      owner: "CommandNode", field: "type", cases: CommandNode.Kind.allCases.map(\.rawValue),
      type: "available_commands",
      body: {
        #""working_directory":null,"project_commands":[{"id":"a","label":"A","type":\#($0)}],"general_commands":[]"#
      },
      pointer: "/project_commands/0/type",
      read: { if case .availableCommands(let m) = $0 { m.projectCommands.first?.type.rawValue } else { nil } }),
    Site(
      owner: "ReplayedMessage", field: "role", cases: ReplayedMessage.Role.allCases.map(\.rawValue),
      type: "replay", body: { #""message_id":"m-1","message":{"role":\#($0),"text":"hi"}"# },
      pointer: "/message/role",
      read: { if case .replay(.v0_2_0(let m)) = $0 { m.message.role.rawValue } else { nil } }),
  ]

  static let catalog = ProtocolCatalog.v0_2_0

  /// Every generated field of the catalog as (owner, field).
  static func generatedFields() -> [(owner: String, field: FieldSpec)] {
    var out: [(String, FieldSpec)] = []
    for m in catalog.messages where m.isModelled { out += m.fields.map { (m.type, $0) } }
    for name in catalog.shapeOrder {
      guard let shape = catalog.shapes[name], !shape.handWrittenModel else { continue }
      out += shape.fields.map { (name, $0) }
    }
    return out
  }

  /// The catalog's allowed values of a site, as strings.
  static func allowedValues(_ site: Site) -> [String]? {
    let field = generatedFields().first { $0.owner == site.owner && $0.field.name == site.field }?.field
    return field?.allowedValues?.compactMap(\.stringValue)
  }

  @Test func everyClosedStringSetIsAnEnumAndNothingElse() {
    var closed: [String] = []
    for (owner, field) in Self.generatedFields() {
      guard let allowed = field.allowedValues else { continue }
      let allStrings = allowed.allSatisfy { $0.stringValue != nil }
      if field.type == .text && allStrings {
        closed.append("\(owner).\(field.name)")
        #expect(SwiftModelGenerator.enumValues(field) == allowed.compactMap(\.stringValue))
      } else {
        // e.g. `success: [true]` stays Bool, checked by value.
        #expect(SwiftModelGenerator.enumValues(field) == nil, "\(owner).\(field.name)")
      }
    }
    #expect(closed.sorted() == Self.sites.map(\.testDescription).sorted())
  }

  @Test(arguments: sites) func enumCasesAreTheCatalogsAllowedValues(_ site: Site) {
    let allowed = Self.allowedValues(site)
    #expect(allowed != nil)
    #expect(site.cases == allowed)
  }

  @Test(arguments: sites) func everyValueRoundTrips(_ site: Site) throws {
    let decoder = MessageDecoder(options: ValidationOptions(direction: .serverToClient, version: .v0_2_0))
    for raw in site.cases {
      let frame = site.frame("\"\(raw)\"")
      #expect(Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame).findings.isEmpty, "\(frame)")
      for typeFirst in [true, false] {
        let message = try decoder.decodeServerMessage(Array(site.frame("\"\(raw)\"", typeFirst: typeFirst).utf8))
        #expect(site.read(message) == raw)
        #expect(String(decoding: MessageEncoder().encode(message), as: UTF8.self) == frame)
      }
    }
  }

  /// Outside the set (or not a string): the decoder throws exactly the validator's findings, on both
  /// decode paths, and the generated decoder refuses it on the tree reader too.
  @Test(arguments: sites) func aValueOutsideTheSetFailsLikeTheValidator(_ site: Site) throws {
    let decoder = MessageDecoder(options: ValidationOptions(direction: .serverToClient, version: .v0_2_0))
    let first = site.cases[0]
    let outside: [(token: String, code: String)] = [
      ("\"\(first.uppercased())\"", "invalid_value"),
      ("\"\(first) \"", "invalid_value"),
      ("\"\"", "invalid_value"),
      ("\"other\"", "invalid_value"),
      ("7", "wrong_type"),
      ("[\"\(first)\"]", "wrong_type"),
    ]
    for (token, code) in outside {
      let expected = Validator(options: ValidationOptions(version: .v0_2_0)).validate(site.frame(token)).findings.map {
        "\($0.code) \($0.pointer)"
      }
      #expect(expected == ["\(code) \(site.pointer)"], "\(token)")
      for typeFirst in [true, false] {
        do {
          _ = try decoder.decodeServerMessage(Array(site.frame(token, typeFirst: typeFirst).utf8))
          Issue.record("\(site.frame(token, typeFirst: typeFirst)) decoded")
        } catch {
          #expect(error.findings.map { "\($0.code) \($0.pointer)" } == expected)
        }
      }
      // The generated decoder over the tree refuses it too (the validator alone says why).
      let object = try #require(try JSONReader().parse(Array(site.frame(token).utf8)).objectValue)
      #expect(throws: DirectPathError.self) {
        try MessageDecoder.read(object, type: site.type, direction: .serverToClient, version: .v0_2_0)
      }
    }
  }

  /// Both readers accept exactly the raw values.
  @Test func readersAcceptExactlyTheRawValues() throws {
    func check<E: JSONStringEnum & ModelReadable>(_: E.Type) throws {
      func pulled(_ json: String) -> E? {
        Array(json.utf8).withUnsafeBufferPointer { buffer in
          var p = BytesReader(buffer: buffer, limits: .default)
          return try? E.read(&p)
        }
      }
      for value in E.allCases {
        #expect(pulled("\"\(value.rawValue)\"") == value)
        #expect(E.read(tree: .string(value.rawValue)) == value)
        var writer = JSONWriter()
        value.encodeField(to: &writer)
        #expect(writer.bytes == Array("\"\(value.rawValue)\"".utf8))
      }
      for json in ["\"other\"", "\"\"", "7", "null", "true"] {
        #expect(pulled(json) == nil, "\(json)")
      }
      for value: JSONValue in [.string("other"), .string(""), 7, .null, true] {
        #expect(E.read(tree: value) == nil, "\(value)")
      }
    }
    try check(CommandOutputMessage.Stream.self)
    try check(CommandNode.Kind.self)
    try check(ReplayedMessage.Role.self)
  }

  @Test func enumAndCaseNames() {
    #expect(SwiftModelGenerator.enumName(FieldSpec("stream", .text)) == "Stream")
    #expect(SwiftModelGenerator.enumName(FieldSpec("type", .text)) == "Kind")
    #expect(SwiftModelGenerator.enumName(FieldSpec("exit_reason", .text)) == "ExitReason")
    #expect(SwiftModelGenerator.caseName("stdout") == "stdout")
    #expect(SwiftModelGenerator.caseName("tool_use") == "toolUse")
    #expect(SwiftModelGenerator.caseName("max-tokens") == "maxTokens")
    #expect(SwiftModelGenerator.caseName("a.b") == "aB")
    #expect(SwiftModelGenerator.caseName("2fa") == "_2fa")
    #expect(SwiftModelGenerator.caseName("default") == "`default`")
  }
}
