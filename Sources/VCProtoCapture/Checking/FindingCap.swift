/// How many findings one `vcproto validate` run prints (`--max-findings`).
///
/// A hostile capture can draw a finding from every line (a 2-byte garbage line prints a finding of
/// about 100 bytes), so the findings printed are capped for the whole run, over all its captures.
/// Past the cap findings are still counted (the summary's totals, per type and per code, and the exit
/// status are the same as without it) and the summary says how many were not shown. This is the
/// run-level bound; the per-frame one is the library's ``ValidationOptions/maxFindings`` (100, then
/// one `findings_suppressed` finding), which applies first.
package struct FindingCap: Sendable, Equatable {
  /// The default of `--max-findings`.
  package static let defaultLimit = CaptureValidator.defaultMaxFindings

  /// Most findings printed; `nil` is unlimited (`--max-findings unlimited`), `0` prints none (only
  /// the summary).
  let limit: Int?
  /// Findings printed so far.
  private(set) var shown = 0
  /// Findings counted but not printed because the cap was reached.
  private(set) var notShown = 0

  init(limit: Int? = FindingCap.defaultLimit) {
    self.limit = limit
  }

  /// Whether the next finding is printed; counts it either way.
  mutating func admit() -> Bool {
    if let limit, shown >= limit {
      notShown += 1
      return false
    }
    shown += 1
    return true
  }
}
