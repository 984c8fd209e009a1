import VCProtoCapture

extension FindingCap {
  /// The limit a `--max-findings` value gives: a number from 0 up, or `unlimited` (`nil`). Anything
  /// else is a usage error.
  static func limit(parsing text: String) throws(UsageError) -> Int? {
    if text == "unlimited" { return nil }
    guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let n = Int(text) else {
      throw UsageError(
        "invalid value '\(TerminalText.escaped(text, limit: 64))' for '--max-findings' (expected a number from 0"
          + " up, or 'unlimited')")
    }
    return n
  }
}
