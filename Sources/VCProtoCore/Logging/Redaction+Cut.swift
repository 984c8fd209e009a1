import VCProtoJSON

/// The one rule for shortening text that came from a peer before it is quoted in a message, a log
/// record, a description or CLI output. A member name, a `type` or a value can be megabytes long,
/// and a finding, log line or error that repeats it whole lets one frame fill a log.
///
/// Text is counted in Unicode scalars, never in `Character`s: 100,000 combining marks after one
/// letter are a single `Character`, so a grapheme count would keep all of them. Counting stops at
/// the limit, so cutting costs no more than the kept prefix whatever the text's length.
extension Redaction {
  /// `text` with at most `limit` Unicode scalars, then `…` when something was left off (so the
  /// result has at most `limit + 1` scalars). No masking: see ``truncated(_:limit:)``.
  package static func cut(_ text: String, limit: Int) -> String {
    guard let end = endOfPrefix(text, limit: limit) else { return text }
    return String(text.unicodeScalars[..<end]) + "…"
  }

  /// Where the first `limit` (at least 0) Unicode scalars of `text` end, or `nil` when `text` has no
  /// more than that. Walks at most `limit` scalars.
  private static func endOfPrefix(_ text: String, limit: Int) -> String.UnicodeScalarView.Index? {
    let scalars = text.unicodeScalars
    guard let end = scalars.index(scalars.startIndex, offsetBy: max(0, limit), limitedBy: scalars.endIndex),
      end != scalars.endIndex
    else { return nil }
    return end
  }

  /// `text` unchanged when it has at most `limit` Unicode scalars; otherwise a prefix, then `…` and
  /// the text's whole length in UTF-8 bytes, `abc… (1000000 bytes)`, at most `limit` scalars in all
  /// (when `limit` leaves room for the mark), so cutting a cut text changes nothing. No masking.
  package static func cutMarkingLength(_ text: String, limit: Int) -> String {
    guard endOfPrefix(text, limit: limit) != nil else { return text }
    let scalars = text.unicodeScalars
    let mark = "… (\(text.utf8.count) bytes)"
    let kept = max(0, max(0, limit) - mark.unicodeScalars.count)
    return String(scalars[..<scalars.index(scalars.startIndex, offsetBy: kept)]) + mark
  }

  /// Shortens a value quoted in a human message: key-shaped text masked first
  /// (``maskingKeyShapedText(_:)``), then ``cut(_:limit:)`` (at most `limit` Unicode scalars, then
  /// `…`). Validator and parser messages quote at most 60 (STANDARDS.md#findings).
  package static func truncated(_ text: String, limit: Int = 60) -> String {
    cut(maskingKeyShapedText(text), limit: limit)
  }
}
