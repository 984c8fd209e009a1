import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Makes text that came from a capture safe to print on a terminal, and bounds its length.
///
/// A capture is attacker-controlled, and so is everything a peer of `vcproto conformance` says: a message `type` or member name can hold escape sequences that
/// write to the clipboard (OSC 52), move the cursor, erase lines or reorder what is shown (bidi
/// overrides), and so forge a clean summary. Text output therefore shows every such character as a
/// visible escape instead of sending it to the terminal, and shortens long names. JSON output needs
/// no escaping (its strings are JSON-escaped, see ``jsonSafe(_:)``); it cuts only a finding's type
/// and message (``cut(_:limit:)``) and keeps pointers exact.
package enum TerminalText {
  /// Most characters of a message type or member name shown in text output (after escaping); longer
  /// ones end in `…`.
  package static let maxNameLength = 64
  /// Most characters of a JSON Pointer shown in text output.
  package static let maxPointerLength = 160
  /// Most characters of a finding's message shown in text output.
  package static let maxMessageLength = 400
  /// How the empty pointer (the whole frame) is shown in text output. `/` would be wrong: in RFC 6901
  /// it names the member whose name is empty.
  package static let root = "(root)"

  /// `text` with every character that could steer a terminal shown as `\u{XX}` and a backslash
  /// shown as `\\` (so the escapes are unambiguous), cut to at most `limit` characters (Unicode
  /// scalars) with `…` at the end when something was left off.
  ///
  /// Escaped: the C0 controls, DEL and the C1 controls (general category Cc, which includes ESC, CSI
  /// and the bytes OSC and DCS start with), every format character (Cf: the bidi embeddings,
  /// overrides and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F and U+061C,
  /// zero-width characters, soft hyphen, tags) and the line and paragraph separators (Zl, Zp).
  package static func escaped(_ text: String, limit: Int = .max) -> String {
    var out = String.UnicodeScalarView()
    var length = 0
    for scalar in text.unicodeScalars {
      let piece = escape(scalar)
      if length + piece.count > limit {
        out.append("…")
        return String(out)
      }
      out.append(contentsOf: piece)
      length += piece.count
    }
    return String(out)
  }

  /// `text` cut like ``escaped(_:limit:)`` (at most `limit` Unicode scalars, then `…` when something
  /// was left off) but not escaped: for JSON output, which escapes by itself. The library's one
  /// cutting rule (`Redaction.cut`); costs at most `limit` scalars whatever the text's length.
  package static func cut(_ text: String, limit: Int) -> String {
    Redaction.cut(text, limit: limit)
  }

  /// JSON text with every character ``needsEscape(_:)`` flags written as a `\uXXXX` escape (a
  /// surrogate pair beyond U+FFFF). The JSON value is unchanged (the output stays exact); only the
  /// raw DEL, C1, format and separator characters the writer leaves as UTF-8 no longer reach a
  /// terminal. Valid for JSON text only: such characters can appear there only inside strings.
  package static func jsonSafe(_ json: String) -> String {
    // Tab, line feed and carriage return are JSON whitespace: in JSON text (the writer escapes them
    // inside strings) they can only be layout, e.g. a pretty printer's line breaks.
    func escapes(_ scalar: Unicode.Scalar) -> Bool {
      scalar != "\n" && scalar != "\t" && scalar != "\r" && needsEscape(scalar)
    }
    guard json.unicodeScalars.contains(where: escapes) else { return json }
    var out = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      guard escapes(scalar) else {
        out.append(scalar)
        continue
      }
      for unit in String(scalar).utf16 {
        let hex = String(unit, radix: 16)
        out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
      }
    }
    return String(out)
  }

  /// A finding's pointer for text output: `(root)` for the whole frame, else the escaped pointer.
  package static func pointer(_ pointer: String) -> String {
    pointer.isEmpty ? root : escaped(pointer, limit: maxPointerLength)
  }

  /// A message for text output (a finding's, or what `vcproto conformance` says about a test, which
  /// quotes the peer): escaped, at most ``maxMessageLength`` characters.
  package static func message(_ text: String) -> String {
    escaped(text, limit: maxMessageLength)
  }

  /// A message type (or other name from the input) for text output.
  package static func name(_ name: String) -> String {
    escaped(name, limit: maxNameLength)
  }

  /// Whether a scalar must not reach the terminal as it is.
  package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: return true
    default: return false
    }
  }

  private static func escape(_ scalar: Unicode.Scalar) -> String.UnicodeScalarView {
    if scalar == "\\" { return "\\\\".unicodeScalars }
    guard needsEscape(scalar) else { return String.UnicodeScalarView([scalar]) }
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "\\u{\(hex.count < 2 ? "0" + hex : hex)}".unicodeScalars
  }
}
