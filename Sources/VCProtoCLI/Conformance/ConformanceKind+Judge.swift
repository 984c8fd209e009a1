import VCProtoCapture
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

extension ConformanceKind {
  /// The verdict on a peer's `reply` to a request made from `vector`: `true` passed, `false` failed,
  /// `nil` skipped, with why. The one judge of both runners: `vcproto conformance` (a peer in a child
  /// process) and `vcproto vectors` (``SwiftPeer``, this library in process), so what counts as a
  /// right answer is written once, in ``compare``.
  ///
  /// A reply holds `unsupported` (skipped), `error` (failed: the peer could not answer) or `result`,
  /// which ``compare`` judges against the vector's expectations.
  func judge(_ reply: JSONValue, vector: JSONValue) -> (Bool?, String) {
    if let why = reply["unsupported"] { return (nil, "unsupported: \(Self.said(why))") }
    if let why = reply["error"] { return (false, "the peer reports an error: \(Self.said(why))") }
    guard let result = reply["result"] else {
      return (false, "the answer has none of \"result\", \"unsupported\", \"error\"")
    }
    let problems = compare(vector, result)
    return (problems.isEmpty, problems.joined(separator: "; "))
  }

  /// A peer's `error` or `unsupported` text (or other JSON value), cut to what a line shows: at most
  /// ``TerminalText/maxMessageLength`` characters, so a 16 MiB text costs no more than a short one.
  /// Not escaped here: the command escapes (and cuts) the whole message it prints.
  static func said(_ value: JSONValue) -> String {
    if let text = value.stringValue { return TerminalText.cut(text, limit: TerminalText.maxMessageLength) }
    return TerminalText.cut(value.jsonText, limit: TerminalText.maxMessageLength)
  }
}
