import Testing
import VCProto

@testable import VCProtoTestSupport

/// The findings-cap oracle of `fuzz-frame` (``FindingsCapCheck``), on the input that stopped the
/// target on the oracle itself (issue 29).
@Suite struct FindingsCapCheckTests {
  /// A 0.2.0 `session_history` whose 98 messages lack their members: 102 findings, so the default
  /// report is itself capped (100 kept, "2 more findings suppressed"). Its byte sum picks 0.2.0 in
  /// `fuzz-frame` (Fuzz/make_seeds.py seeds it).
  static let frame = Array(
    (#"{"type":"session_history","session_id":"s","messages":["#
      + Array(repeating: #"{"role":"x"}"#, count: 98).joined(separator: ",") + "]}").utf8)

  @Test func aFrameWhoseDefaultReportIsItselfCappedPasses() {
    let versions = ProtocolVersion.allCases
    #expect(versions[Self.frame.reduce(0) { ($0 + Int($1)) % versions.count }] == .v0_2_0)
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(Self.frame)
    #expect(report.findings.count == ValidationOptions(version: .v0_2_0).maxFindings + 1)
    #expect(report.findings.last?.message.hasPrefix("2 more findings suppressed (2 errors, 0 warnings)") == true)
    #expect(FindingsCapCheck.counts(report.findings) == (102, 102))
    // The old oracle wanted 101 - 3 = 98 more; the capped report rightly says 102 - 3.
    let capped = Validator(options: ValidationOptions(version: .v0_2_0, maxFindings: 3)).validate(Self.frame)
    #expect(capped.findings.last?.message.hasPrefix("99 more findings suppressed (99 errors") == true)
    #expect(FindingsCapCheck.problem(Self.frame, report, version: .v0_2_0) == nil)
  }

  /// The oracle still fails a count that is wrong: the report of a frame with one finding fewer.
  @Test func aWrongCountIsStillCaught() {
    let other = Array(
      (#"{"type":"session_history","session_id":"s","messages":["#
        + Array(repeating: #"{"role":"x"}"#, count: 97).joined(separator: ",") + "]}").utf8)
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(other)
    let problem = FindingsCapCheck.problem(Self.frame, report, version: .v0_2_0)
    #expect(problem?.hasPrefix("wrong count: 99 more findings suppressed") == true, "\(problem ?? "nil")")
  }

  /// Under the default cap the count is the findings kept, and a frame with fewer findings than the
  /// small cap passes unchanged.
  @Test func smallReports() {
    let frame = Array(#"{"type":"session_history","session_id":"s","messages":[{"role":"x"}]}"#.utf8)
    let report = Validator(options: ValidationOptions(version: .v0_2_0)).validate(frame)
    #expect(FindingsCapCheck.counts(report.findings).findings == report.findings.count)
    #expect(FindingsCapCheck.problem(frame, report, version: .v0_2_0) == nil)
    let valid = Array(#"{"type":"ping"}"#.utf8)
    #expect(
      FindingsCapCheck.problem(
        valid, Validator(options: ValidationOptions(version: .v0_2_0)).validate(valid), version: .v0_5_0) == nil)
  }
}
