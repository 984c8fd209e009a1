import VCProto

/// The oracle of the fuzz target `fuzz-frame` for the per-frame findings cap
/// (``ValidationOptions/maxFindings``): a frame's findings stay within the cap plus the one
/// `findings_suppressed` summary, at the default and at a cap of 3 the fuzzer reaches easily, and the
/// capped report keeps the uncapped one's verdict, its first findings and its count. Here rather than
/// in the target so that the tests can run it; not a stable API.
public enum FindingsCapCheck {
  /// The smaller cap the frame is validated again with.
  public static let cap = 3

  /// The first broken invariant for `bytes`, whose report at the default options of `version` is
  /// `report`, or `nil`.
  ///
  /// The count a capped report gives ("N more findings suppressed (E errors, W warnings)") is the
  /// frame's whole count minus the cap, where the whole count is what the default report kept plus
  /// what its own summary says it left out: the default report is itself capped (at 100) when the
  /// frame has more findings than that.
  public static func problem(_ bytes: [UInt8], _ report: ValidationReport, version: ProtocolVersion) -> String? {
    if report.findings.count > ValidationOptions(version: .v0_2_0).maxFindings + 1 {
      return "findings over the default cap"
    }
    let capped = Validator(options: ValidationOptions(version: version, maxFindings: cap)).validate(bytes)
    if capped.findings.count > cap + 1 { return "findings over the cap: \(capped.findings.count)" }
    if capped.isValid != report.isValid { return "the findings cap changed the verdict" }
    if report.findings.count <= cap {
      return capped.findings == report.findings ? nil : "the cap changed findings under the cap"
    }
    if Array(capped.findings.prefix(cap)) != Array(report.findings.prefix(cap)) { return "the cap reordered findings" }
    let summary = capped.findings[cap]
    guard summary.code == .findingsSuppressed else { return "no findings_suppressed summary" }
    let whole = counts(report.findings)
    let kept = counts(Array(capped.findings.prefix(cap)))
    guard let said = suppressed(summary) else { return "unreadable summary: \(summary)" }
    let expected = (whole.findings - cap, whole.errors - kept.errors)
    return said == expected ? nil : "wrong count: \(summary.message), expected \(expected.0) (\(expected.1) errors)"
  }

  /// The findings and errors a report counted: those it kept, plus those its `findings_suppressed`
  /// summary (when it ends with one) says it left out.
  static func counts(_ findings: [Finding]) -> (findings: Int, errors: Int) {
    var kept = findings
    var more = (findings: 0, errors: 0)
    if let last = kept.last, last.code == .findingsSuppressed, let said = suppressed(last) {
      kept.removeLast()
      more = said
    }
    return (kept.count + more.findings, kept.filter { $0.severity == .error }.count + more.errors)
  }

  /// The counts a `findings_suppressed` summary gives: "N more findings suppressed (E errors, ...".
  static func suppressed(_ summary: Finding) -> (findings: Int, errors: Int)? {
    let numbers = summary.message.split { !$0.isNumber }.prefix(2).compactMap { Int($0) }
    guard numbers.count == 2, summary.message.hasPrefix("\(numbers[0]) more findings suppressed (\(numbers[1]) errors")
    else { return nil }
    return (numbers[0], numbers[1])
  }
}
