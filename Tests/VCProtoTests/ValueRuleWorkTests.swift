import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Hostile inputs for the one rule interpreter (``ValueRules``): the work stays linear in the input
/// even where `oneOf` alternatives are tried one after the other, findings stay capped inside every
/// trial, and the version format and parser never allocate per dot.
@Suite struct ValueRuleWorkTests {
  /// A sink that counts every step of the walk (members and elements entered, violations recorded,
  /// trials started), shared by a trial and its parent.
  struct StepCounter: ValueRuleSink {
    final class Steps { var count = 0 }
    let steps: Steps
    var hasErrors = false
    var errorCount: Int { hasErrors ? 1 : 0 }
    var isHalted: Bool { false }
    var wantsWarnings: Bool { true }
    mutating func record(_ violation: ValueViolation) {
      steps.count += 1
      if violation.isError { hasErrors = true }
    }
    func enterMember(_ name: String, composite: Bool) { steps.count += 1 }
    func leaveMember(composite: Bool) {}
    func enterElement(_ index: Int) { steps.count += 1 }
    func leaveElement() {}
    func trial() -> StepCounter {
      steps.count += 1
      return StepCounter(steps: steps)
    }
    mutating func absorb(_ trial: StepCounter) { hasErrors = hasErrors || trial.hasErrors }
  }

  /// A 0.3.0 `session_updated` whose `messages` (each `HistoryMessage` or else `ClaudeRecord`) are
  /// `count` raw records: each fails the first alternative, then passes the second, whose
  /// `message.content` is itself an alternative (text, or an array of anything) holding nested arrays.
  static func sessionUpdated(records count: Int) -> JSONValue {
    let nested = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    let record = #"{"type":"user","uuid":"u","message":{"role":"user","content":[\#(nested),"t"]},"extra":1}"#
    let text =
      #"{"type":"session_updated","session_id":"s","messages":["#
      + Array(repeating: record, count: count).joined(separator: ",") + "]}"
    return try! JSONReader().parse(text)
  }

  static func steps(records count: Int) -> Int {
    let catalog = ProtocolCatalog.catalog(.v0_3_0)
    let spec = catalog.message("session_updated")!
    var sink = StepCounter(steps: .init())
    guard case .object(let object) = sessionUpdated(records: count) else { return -1 }
    ValueRules.checkMembers(
      object, fields: spec.fields, extra: .warn, owner: .message("session_updated"), skipping: "type", in: catalog,
      into: &sink)
    #expect(!sink.hasErrors, "the records are valid raw records")
    return sink.steps.count
  }

  @Test func alternativesKeepTheWalkLinear() {
    let (small, large) = (Self.steps(records: 500), Self.steps(records: 1000))
    // Every record costs the same fixed number of steps: doubling the records doubles the steps,
    // plus the frame's own few.
    #expect(small > 500 * 4, "each record runs both alternatives of messages[] and of content")
    #expect(large <= 2 * small + 20)
    #expect(large >= 2 * small - 20)
  }

  /// 2,000 elements that are neither alternative: one error each, capped at `maxFindings` with an
  /// exact count of the rest; at a cap of 3 the same verdict and the same first findings.
  @Test func findingsOfFailedAlternativesAreCapped() {
    let text =
      #"{"type":"session_updated","session_id":"s","messages":["#
      + Array(repeating: "1", count: 2000).joined(separator: ",") + "]}"
    let report = Validator(options: ValidationOptions(version: .v0_3_0)).validate(text)
    #expect(report.findings.count == 101)
    #expect(report.findings.first?.pointer == "/messages/0")
    #expect(report.findings.first?.message == "expected object or object, got integer")
    #expect(report.findings.last?.code == .findingsSuppressed)
    #expect(report.findings.last?.message.hasPrefix("1900 more findings suppressed (1900 errors, 0 warnings)") == true)
    let three = Validator(options: ValidationOptions(version: .v0_3_0, maxFindings: 3)).validate(text)
    #expect(three.findings.count == 4 && !three.isValid)
    #expect(Array(three.findings.prefix(3)) == Array(report.findings.prefix(3)))
  }

  /// When no alternative fits, the findings are those of the alternative of the value's JSON type
  /// with the fewest errors (the first of equals): 0.3.0 `session_updated.messages[]` is a `HistoryMessage` (role
  /// `user` or `assistant`, STANDARDS.md#findings) or a raw record; an object of neither is explained as a
  /// `HistoryMessage`.
  @Test func aFailedAlternativeSaysWhatIsWrongInside() {
    let message = #"{"uuid":"u","role":"robot","text":"t","timestamp":null,"provider":"claude"}"#
    let text = #"{"type":"session_updated","session_id":"s","messages":[\#(message),7]}"#
    let report = Validator(options: ValidationOptions(version: .v0_3_0)).validate(text)
    #expect(report.findings.map(\.pointer) == ["/messages/0/role", "/messages/1"])
    #expect(report.findings.map(\.code) == [.invalidValue, .wrongType])
    #expect(report.findings.last?.message == "expected object or object, got integer")
    // Strict: the undeclared member is the error that rules the first alternative out.
    let extra = #"{"uuid":"u","role":"user","text":"t","timestamp":null,"provider":"claude","extra":1}"#
    let strict = Validator(options: ValidationOptions(version: .v0_3_0, strict: true)).validate(
      #"{"type":"session_updated","session_id":"s","messages":[\#(extra)]}"#)
    #expect(strict.findings.map(\.pointer) == ["/messages/0/extra"])
    #expect(strict.findings.map(\.code) == [.unexpectedField])
    #expect(strict.findings.map(\.severity) == [.error])
    // A raw record (one error inside it, where a HistoryMessage misses five members): its finding.
    let record = #"{"type":"user","message":{"content":[null]}}"#
    let raw = Validator(options: ValidationOptions(version: .v0_3_0)).validate(
      #"{"type":"session_updated","session_id":"s","messages":[\#(record)]}"#)
    #expect(raw.findings.map(\.pointer) == ["/messages/0/message/content/0"])
  }

  /// A trial keeps only what the frame still has room for: once the findings are full, trying an
  /// alternative builds no finding at all (no pointer, no message, no cross-version lookup).
  @Test func aTrialOfAFullStateOnlyCounts() {
    var state = ValidationState(strict: false, maxFindings: 2)
    state.add(.warning, .unexpectedField, "/a", nil, "one")
    #expect(state.trial().maxFindings == 1)
    state.add(.warning, .unexpectedField, "/b", nil, "two")
    var trial = state.trial()
    #expect(trial.isFull)
    trial.record(.undeclaredMember("x", owner: .shape("ClaudeRecord")))
    trial.record(.missingMember("y"))
    #expect(trial.findings.isEmpty && trial.hasErrors)
    state.absorb(trial)
    let finished = state.finishedFindings()
    #expect(finished.map(\.message).prefix(2) == ["one", "two"])
    #expect(finished.last?.message.hasPrefix("2 more findings suppressed (1 errors, 1 warnings)") == true)
  }

  /// The version format and ``VersionNumber`` agree with an independent statement of
  /// `MAJOR.MINOR.PATCH` (a regular expression over Unicode scalars) on the awkward cases.
  @Test(arguments: [
    "0.5.0", "10.20.30", "0.4", "0.4.0.1", ".4.0", "0..0", "0.4.", "", "...", "a.b.c", "0.4.0 ", " 0.4.0",
    "0.4.0-rc1", "１.２.３", "٠.٤.٠", "0\u{0301}.4.0", "00.004.0", "0.4.0\n",
  ])
  func versionFormatMatchesTheGrammar(_ text: String) throws {
    let grammar = try Regex(#"[0-9]+\.[0-9]+\.[0-9]+"#).matchingSemantics(.unicodeScalar)
    let expected = (try? grammar.wholeMatch(in: text)) != nil
    #expect(FormatCheck.isVersion(text) == expected)
    #expect((VersionNumber(text) != nil) == expected)
  }

  @Test func protocolVersionComponentsAndOverflow() {
    #expect(VersionNumber("00.004.10") == VersionNumber(0, 4, 10))
    #expect(VersionNumber("0.4.\(Int.max)") == VersionNumber(0, 4, Int.max))
    #expect(VersionNumber("0.4.9223372036854775808") == nil, "Int.max + 1")
    #expect(VersionNumber("0.4.99999999999999999999") == nil)
    #expect(VersionNumber(announced: "0.5.0-rc1") == VersionNumber(0, 5, 0))
  }

  /// 2 MiB of dots where a version is expected, before authentication (a server reads `connect`, a
  /// client `hello`): refused as a value, in one pass. Splitting on the dots, as the format check and
  /// the parser did, made an array of 2 million slices per check (measured on the old expression:
  /// 16 MiB of dots, 529 MB for each split).
  @Test func megabytesOfDotsAreNotAVersion() {
    let dots = String(repeating: ".", count: 2 << 20)
    #expect(!FormatCheck.isVersion(dots))
    #expect(VersionNumber(dots) == nil)
    // connect.protocol_version is any string: an unparseable one gets the server's floor.
    let connect = #"{"type":"connect","api_key":"k","protocol_version":"\#(dots)"}"#
    let options = ValidationOptions(version: .v0_5_0)
    #expect(Validator(options: options).validate(connect).findings.isEmpty)
    #expect(Negotiator.decideVersion(.realHead, announced: dots) == .success(.v0_4_0))
    // connect.protocol_versions[] and hello.version have the version format.
    let listed = #"{"type":"connect","api_key":"k","protocol_versions":["0.5.0","\#(dots)"]}"#
    let hello =
      #"{"type":"hello","message":"Welcome to voice-code backend","version":"\#(dots)","#
      + #""auth_version":1,"instructions":"Send connect message with api_key"}"#
    for (frame, pointer) in [(listed, "/protocol_versions/1"), (hello, "/version")] {
      let report = Validator(options: options).validate(frame)
      #expect(report.findings.map(\.code) == [.invalidValue])
      #expect(report.findings.first?.pointer == pointer)
      #expect((report.findings.first?.message.utf8.count ?? .max) < 200, "the finding quotes a bounded excerpt")
    }
  }
}
