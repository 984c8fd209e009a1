import Testing
import VCProtoCodegen

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `ValueRules`, the one interpreter of the catalog's value rules, checked directly: each expectation
/// comes from STANDARDS.md (STANDARDS.md#conventions, STANDARDS.md#encoding and STANDARDS.md#findings) or from the
/// catalog's declarations, not from the validator's output. The validator and the generated decoder (over either
/// reader) call it, so these are the rules of both.
@Suite struct ValueRulesTests {
  /// A sink that keeps every violation with the JSON Pointer of where the walk stood.
  struct Collected: ValueRuleSink {
    var path: [String] = []
    var found: [(pointer: String, violation: ValueViolation)] = []

    var isHalted: Bool { false }
    var wantsWarnings: Bool { true }
    var hasErrors: Bool { found.contains { $0.violation.isError } }
    var errorCount: Int { found.filter { $0.violation.isError }.count }
    var pointer: String { path.map { "/" + $0 }.joined() }

    mutating func record(_ violation: ValueViolation) {
      switch violation {
      case .missingMember(let name), .nullMember(let name), .undeclaredMember(let name, _):
        found.append((pointer + "/" + name, violation))
      default:
        found.append((pointer, violation))
      }
    }
    mutating func enterMember(_ name: String, composite: Bool) { path.append(name) }
    mutating func leaveMember(composite: Bool) { path.removeLast() }
    mutating func enterElement(_ index: Int) { path.append(String(index)) }
    mutating func leaveElement() { path.removeLast() }
    func trial() -> Collected { Collected(path: path) }
    mutating func absorb(_ trial: Collected) { found += trial.found }
  }

  static func violations(
    _ value: JSONValue, _ type: FieldType, secret: Bool = false, in catalog: ProtocolCatalog? = nil
  ) -> [ValueViolation] {
    var sink = Collected()
    ValueRules.check(value, type, secret: secret, in: catalog, into: &sink)
    return sink.found.map(\.violation)
  }

  static func json(_ text: String) throws -> JSONValue { try JSONReader().parse(text) }

  // MARK: - Scalars

  /// STANDARDS.md#encoding: an integer member takes an integer literal only (`1.0` is `wrong_type`);
  /// STANDARDS.md#findings: 64-bit integers, and `size_kb` >= 1 (the catalog's minimum for
  /// `set_max_message_size.size_kb`).
  @Test func integersAreLiteralsWithinSixtyFourBitsAndTheirMinimum() throws {
    let sizeKB = try #require(ProtocolCatalog.v0_2_0.message("set_max_message_size")?.field("size_kb"))
    #expect(sizeKB.type == .integer(minimum: 1))
    #expect(Self.violations(try Self.json("1"), sizeKB.type).isEmpty)
    #expect(Self.violations(try Self.json("0"), sizeKB.type) == [.belowMinimum(0, minimum: 1)])
    #expect(Self.violations(try Self.json("-5"), .int).isEmpty)
    #expect(Self.violations(try Self.json("1.0"), .int) == [.wrongType(expected: "integer", got: "number")])
    #expect(Self.violations(try Self.json("1e2"), .int) == [.wrongType(expected: "integer", got: "number")])
    #expect(
      Self.violations(try Self.json("9223372036854775808"), .int) == [
        .outOfRange(literal: "9223372036854775808")
      ])
    #expect(Self.violations(try Self.json("-9223372036854775808"), .int).isEmpty)
    #expect(Self.violations(try Self.json("\"1\""), .int) == [.wrongType(expected: "integer", got: "string")])
  }

  /// The typed predicates the generated direct path calls say the same as the walk over parsed values.
  @Test func theDirectPathsPredicatesAreTheWalksRules() {
    for minimum: Int64? in [nil, 0, 1] {
      for v in [-1, 0, 1, 2] {
        let walk = ValueRules.accepts(.number(JSONNumber(v)), .integer(minimum: minimum))
        #expect(ValueRules.accepts(v, minimum: minimum) == walk, "\(v) against \(String(describing: minimum))")
      }
    }
    let strings = ["2026-01-10T09:14:00Z", "2026-13-01T00:00:00Z", "ab12", "AB12", "abc", "0.5.0", "0.5", ""]
    for format in StringFormat.allCases {
      for s in strings {
        #expect(ValueRules.accepts(s, format: format) == ValueRules.accepts(.string(s), .string(format)))
      }
      #expect(
        ValueRules.accepts(strings, format: format)
          == ValueRules.accepts(.array(strings.map { .string($0) }), .array(.string(format))))
    }
    #expect(ValueRules.accepts([1, 2], minimum: 1))
    #expect(!ValueRules.accepts([1, 0], minimum: 1))
    #expect(ValueRules.accepts(true, allowed: [true]))
    #expect(!ValueRules.accepts(false, allowed: [true]))
    #expect(!ValueRules.accepts("x", allowed: [String]()))
  }

  /// STANDARDS.md#conventions: RFC 3339 date-times with or without a fraction; UUIDs in either case; the catalog's
  /// `hex` (lowercase, even length) and `version` (`MAJOR.MINOR.PATCH`).
  @Test func stringFormats() throws {
    let accepted: [(String, StringFormat)] = [
      ("2026-01-11T17:25:32.123Z", .dateTime), ("2026-01-10T09:14:00Z", .dateTime),
      ("2026-01-10T09:14:00+01:00", .dateTime), ("2024-02-29T00:00:00Z", .dateTime),
      ("4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11", .uuid), ("4D6F0E1E-8A6B-4F43-9D0E-2B8C7A1F0C11", .uuid),
      ("00ff", .hex), ("", .hex), ("0.2.0", .version), ("10.20.30", .version), ("anything", .plain),
    ]
    for (s, format) in accepted {
      #expect(Self.violations(.string(s), .string(format)).isEmpty, "\(s) as \(format)")
    }
    let refused: [(String, StringFormat)] = [
      ("2026-01-10 09:14:00Z", .dateTime), ("2026-01-10T09:14:00", .dateTime), ("2025-02-29T00:00:00Z", .dateTime),
      ("2026-01-10T24:00:00Z", .dateTime), ("4d6f0e1e8a6b4f439d0e2b8c7a1f0c11", .uuid), ("00FF", .hex),
      ("abc", .hex), ("0.2", .version), ("0.2.x", .version), ("v0.2.0", .version),
    ]
    for (s, format) in refused {
      #expect(
        Self.violations(.string(s), .string(format)) == [.badFormat(s, format, secret: false)], "\(s) as \(format)")
    }
    #expect(Self.violations(1, .text) == [.wrongType(expected: "string", got: "integer")])
    #expect(Self.violations(.bool(true), .boolean).isEmpty)
    #expect(Self.violations(.string("true"), .boolean) == [.wrongType(expected: "boolean", got: "string")])
  }

  /// STANDARDS.md#conventions: the date-time check reads the string's bytes in place, so every truncation of a valid
  /// date-time, a valid one with bytes after it, and each month's last day (and the day after it) must
  /// get the verdict RFC 3339 gives, without reading past the end (debug builds check each index).
  @Test func dateTimeBoundsAndTruncations() throws {
    let full = "2026-04-30T23:59:60.123456+14:00"
    for end in 0..<full.utf8.count {
      let prefix = String(full.utf8.prefix(end))!
      #expect(
        Self.violations(.string(prefix), .string(.dateTime)) == [.badFormat(prefix, .dateTime, secret: false)],
        "\(prefix)")
    }
    #expect(Self.violations(.string(full), .string(.dateTime)).isEmpty)
    for junk in ["\(full)0", "\(full)Z", "2026-04-30T23:59:60Zx", "2026-04-30T23:59:60.Z"] {
      #expect(Self.violations(.string(junk), .string(.dateTime)) == [.badFormat(junk, .dateTime, secret: false)])
    }
    // Month lengths (Gregorian leap years: 2000 is one, 1900 is not).
    let lastDays = [
      "2026-01-31", "2026-02-28", "2024-02-29", "2000-02-29", "2026-03-31", "2026-04-30", "2026-05-31",
      "2026-06-30", "2026-07-31", "2026-08-31", "2026-09-30", "2026-10-31", "2026-11-30", "2026-12-31",
    ]
    for day in lastDays {
      let s = "\(day)T00:00:00Z"
      #expect(Self.violations(.string(s), .string(.dateTime)).isEmpty, "\(s)")
    }
    let pastLast = [
      "2026-01-32", "2026-02-29", "1900-02-29", "2026-04-31", "2026-06-31", "2026-09-31", "2026-11-31",
      "2026-12-32", "2026-13-01", "2026-00-10", "2026-01-00",
    ]
    for day in pastLast {
      let s = "\(day)T00:00:00Z"
      #expect(Self.violations(.string(s), .string(.dateTime)) == [.badFormat(s, .dateTime, secret: false)], "\(s)")
    }
  }

  // MARK: - Composites

  /// STANDARDS.md#null: `null` in an array element is `null_not_allowed`, at the element; every element is
  /// checked, not only the first that fails.
  @Test func arrayElementsAreEachChecked() throws {
    var sink = Collected()
    ValueRules.check(
      try Self.json(#"["0.2.0", null, "x", 3]"#), .array(.string(.version)), secret: false, in: nil, into: &sink)
    #expect(sink.found.map(\.pointer) == ["/1", "/2", "/3"])
    #expect(
      sink.found.map(\.violation) == [
        .nullElement, .badFormat("x", .version, secret: false), .wrongType(expected: "string", got: "integer"),
      ])
  }

  /// A `oneOf` type takes the first alternative the value satisfies; a value of none of their JSON
  /// types is one `wrong_type` naming them all (Claude message content: a string or an array of
  /// blocks); a value of an alternative's JSON type that breaks its rules gets that alternative's
  /// findings (of such alternatives, the one with the fewest errors).
  @Test func alternativesTakeTheFirstMatch() throws {
    let type = FieldType.oneOf([.text, .array(.any)])
    #expect(Self.violations(.string("hi"), type).isEmpty)
    #expect(Self.violations(try Self.json("[1, {}]"), type).isEmpty)
    #expect(Self.violations(.bool(false), type) == [.wrongType(expected: "string or array", got: "boolean")])
    // An alternative that matches the JSON type but breaks a rule does not count as a match.
    let dated = FieldType.oneOf([.string(.dateTime), .integer(minimum: 0)])
    #expect(Self.violations(.string("yesterday"), dated) == [.badFormat("yesterday", .dateTime, secret: false)])
    #expect(Self.violations(try Self.json("-1"), dated) == [.belowMinimum(-1, minimum: 0)])
    #expect(Self.violations(try Self.json("1.5"), dated) == [.wrongType(expected: "string or integer", got: "number")])
  }

  /// Members: a missing required member and a `null` where the table says `null: no` are reported at
  /// the member; `null` in a nullable member is absence; an undeclared member is a warning only where
  /// the shape warns about them; a closed set admits only its values (an empty set only null/absence).
  @Test func membersOfAnObject() throws {
    let fields = [
      FieldSpec("id", .text),
      FieldSpec("note", .text, required: false, nullable: true),
      FieldSpec("stream", .text, allowedValues: ["stdout", "stderr"]),
      FieldSpec("gone", .text, required: false, nullable: true, allowedValues: []),
      FieldSpec("when", .string(.dateTime), required: false),
    ]
    let object = try #require(
      try Self.json(#"{"stream":"stdin","note":null,"when":null,"gone":"x","extra":1}"#).objectValue)
    var sink = Collected()
    ValueRules.checkMembers(
      object, fields: fields, extra: .warn, owner: .message("test"), skipping: nil, in: nil, into: &sink)
    #expect(sink.found.map(\.pointer) == ["/id", "/stream", "/gone", "/when", "/extra"])
    #expect(
      sink.found.map(\.violation) == [
        .missingMember("id"),
        .notAllowed("stdin", allowed: ["stdout", "stderr"], member: "stream", secret: false),
        .notAllowed("x", allowed: [], member: "gone", secret: false),
        .nullMember("when"),
        .undeclaredMember("extra", owner: .message("test")),
      ])
    #expect(sink.found.filter { !$0.violation.isError }.count == 1)

    var quiet = Collected()
    ValueRules.checkMembers(
      object, fields: fields, extra: .allow, owner: .message("test"), skipping: nil, in: nil, into: &quiet)
    #expect(!quiet.found.contains { !$0.violation.isError }, "pass-through shapes take any member")
  }

  /// A nested shape is checked member by member when the catalog is given (the validator, and the
  /// hand-written `ClaudeRecord`), and only as an object otherwise (its generated model checks itself).
  @Test func nestedShapesNeedTheCatalog() throws {
    let catalog = ProtocolCatalog.v0_2_0
    let name = try #require(catalog.shapes.keys.sorted().first { catalog.shapes[$0]!.fields.contains { $0.required } })
    let required = try #require(catalog.shapes[name]!.fields.first { $0.required })
    let empty = JSONValue.object(JSONObject())
    #expect(Self.violations(empty, .shape(name)).isEmpty)
    #expect(Self.violations(empty, .shape(name), in: catalog).contains(.missingMember(required.name)))
    #expect(Self.violations(.array([]), .shape(name)) == [.wrongType(expected: "object", got: "array")])
  }

  /// The yes/no sink stops at the first error, and a warning alone is not a failure.
  @Test func theYesNoVerdict() throws {
    var verdict = RuleBreak()
    ValueRules.check(try Self.json("[null, null]"), .array(.text), secret: false, in: nil, into: &verdict)
    #expect(verdict.hasErrors && verdict.isHalted)
    let shape = ShapeSpec("S", doc: "", fields: [FieldSpec("a", .int)])
    let extra = try #require(try Self.json(#"{"a":1,"b":2}"#).objectValue)
    var clean = RuleBreak()
    ValueRules.checkMembers(
      extra, fields: shape.fields, extra: shape.extraMembers, owner: .shape(shape.name), skipping: nil, in: .v0_2_0,
      into: &clean)
    #expect(!clean.hasErrors)
  }

  /// A prepared member (what the raw-record direct path checks with) applies the declaration's rules:
  /// the catalog's `ClaudeRecord.message` is an optional, non-nullable `ClaudeMessage` whose `role` is
  /// a string (catalog declaration); without a catalog only the JSON type of the shape is checked.
  @Test func aPreparedMemberKeepsTheDeclarationsRules() throws {
    let catalog = ProtocolCatalog.v0_2_0
    let message = try #require(catalog.shapes["ClaudeRecord"]?.fields.first { $0.name == "message" })
    let prepared = ValueRules.PreparedMember(message, in: catalog)
    #expect(prepared.shape?.spec.name == "ClaudeMessage")
    #expect(prepared.shape?.members.map(\.field.name) == ["role", "content"])
    #expect(ValueRules.accepts(nil, member: prepared))
    #expect(!ValueRules.accepts(.null, member: prepared))
    #expect(ValueRules.accepts(try Self.json(#"{"role":"user","content":"hi"}"#), member: prepared))
    #expect(!ValueRules.accepts(try Self.json(#"{"role":7}"#), member: prepared))
    #expect(!ValueRules.accepts(try Self.json(#""text""#), member: prepared))
    let shallow = ValueRules.PreparedMember(message, in: nil)
    #expect(shallow.shape == nil)
    #expect(ValueRules.accepts(try Self.json(#"{"role":7}"#), member: shallow))
    // Not prepared below the first level (how a shape that contains itself stops): the nested shape
    // is looked up by name as it is met, with the same verdicts.
    let unprepared = ValueRules.PreparedMember(message, in: catalog, levels: 0)
    #expect(unprepared.shape == nil)
    #expect(ValueRules.accepts(try Self.json(#"{"role":"user","content":["x", 1]}"#), member: unprepared))
    #expect(!ValueRules.accepts(try Self.json(#"{"role":7}"#), member: unprepared))
    #expect(!ValueRules.accepts(try Self.json(#"{"content":[null]}"#), member: unprepared))
    #expect(!ValueRules.accepts(try Self.json(#"{"content":[null]}"#), member: prepared))
  }

  // MARK: - Cross-member rules

  /// STANDARDS.md#message-reference, `connect`: exactly one of `api_key`, `auth_response` must be set, and
  /// `auth_response` requires `client_nonce`; `prompt`: `new_session_id` and `resume_session_id` are
  /// mutually exclusive; `error`: `required` and `received` with `unsupported_protocol_version`.
  @Test func crossMemberRulesOfTheCatalog() throws {
    let catalog = ProtocolCatalog.v0_5_0
    let connect = try #require(catalog.message("connect")?.rules)
    #expect(connect == [.exactlyOne(["api_key", "auth_response"]), .requires("auth_response", "client_nonce")])
    #expect(connect[0].violation(set: [true, false]) == nil)
    #expect(connect[0].violation(set: [false, false]) == .noneOf(["api_key", "auth_response"]))
    #expect(connect[0].violation(set: [true, true]) == .severalOf(set: ["api_key", "auth_response"]))
    #expect(connect[1].violation(set: [true, false]) == .requires("auth_response", required: "client_nonce"))
    #expect(connect[1].violation(set: [false, false]) == nil)

    let prompt = try #require(catalog.message("prompt")?.rules.first)
    #expect(prompt.violation(set: [true, true]) == .mutuallyExclusive(set: ["new_session_id", "resume_session_id"]))
    #expect(prompt.violation(set: [false, true]) == nil)
    let three = FieldRule.mutuallyExclusive(["a", "b", "c"])
    #expect(three.violation(set: [true, false, true])?.member == "c", "the second member set, not the rule's second")

    let error = try #require(catalog.message("error")?.rules.first)
    #expect(error.violation(set: [false, false, false]) == nil, "only with the named code")
    #expect(
      error.violation(set: [true, true, false])
        == .requiredWhen("code", equals: "unsupported_protocol_version", missing: ["received"]))
    #expect(error.violation(set: [true, false, false])?.member == "required")

    // The set as the validator computes it from a frame: present and non-null, and the condition's value.
    let object = try #require(
      try Self.json(#"{"code":"unsupported_protocol_version","required":null,"received":"0.1.0"}"#).objectValue)
    #expect(error.memberSet(in: object) == [true, false, true])
  }

  // MARK: - The generated decoder

  /// The generated `reading(_:)` calls the rules rather than restating them: every value check is a
  /// `ValueRules.accepts` call and every cross-member check `FieldRule`'s own, never a comparison or a
  /// format check written out in the generated source.
  @Test func generatedCodeCallsTheRulesAndNeverRestatesThem() {
    var calls = 0
    for file in SwiftModelGenerator().files() {
      for restated in ["FormatCheck", "v >= ", "v == ", "$0 >= ", "allSatisfy"] {
        #expect(!file.contents.contains(restated), "\(file.name) restates a rule: \(restated)")
      }
      calls += file.contents.components(separatedBy: "ValueRules.accepts(").count - 1
    }
    #expect(calls > 0)
  }
}
