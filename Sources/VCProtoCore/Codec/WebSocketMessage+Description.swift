import VCProtoJSON

extension WebSocketMessage: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// How many bytes of a text message the preview reads: the redaction runs over this prefix only,
  /// so describing a message of any size costs no more than this.
  static let previewWindowBytes = 4_096
  /// How many Unicode scalars of the redacted text the preview keeps (then `…`).
  static let previewScalars = 96
  /// How many bytes of a binary message are shown, in hex.
  static let previewBinaryBytes = 16

  /// The kind, the size and a short preview with secrets masked, never the payload itself:
  /// `text, 84 bytes: {"type":"connect","api_key":"«redacted»","protocol_version":"0.5.0"}`, or
  /// `binary, 1234 bytes: 56 43 01 …`. A text preview is the first
  /// 4,096 bytes redacted as log records are (``Redaction/redactedText(_:)``: every
  /// secret member's value and any key-shaped text masked; a secret whose name falls in the window
  /// is masked up to the window's end), control characters escaped, then cut to 96
  /// Unicode scalars.
  public var description: String {
    switch self {
    case .text(let bytes): return "text, \(bytes.count) bytes: " + Self.textPreview(bytes)
    case .binary(let bytes): return "binary, \(bytes.count) bytes: " + Self.binaryPreview(bytes)
    }
  }

  /// `WebSocketMessage(text, 84 bytes: ...)`: ``description`` named.
  public var debugDescription: String { "WebSocketMessage(\(description))" }

  /// For `dump` and debuggers: the kind, the size and the preview, never the bytes.
  public var customMirror: Mirror {
    let kind: String
    switch self {
    case .text: kind = "text"
    case .binary: kind = "binary"
    }
    let preview =
      switch self {
      case .text(let bytes): Self.textPreview(bytes)
      case .binary(let bytes): Self.binaryPreview(bytes)
      }
    return Mirror(self, children: ["kind": kind, "count": bytes.count, "preview": preview], displayStyle: .enum)
  }

  /// A text message's redacted, escaped and cut preview.
  static func textPreview(_ bytes: [UInt8]) -> String {
    let window = String(decoding: bytes.prefix(previewWindowBytes), as: UTF8.self)
    var escaped = ""
    for scalar in Redaction.redactedText(window).unicodeScalars {
      switch scalar {
      case "\n": escaped += "\\n"
      case "\r": escaped += "\\r"
      case "\t": escaped += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
      default: escaped.unicodeScalars.append(scalar)
      }
      if escaped.unicodeScalars.count > previewScalars { break }
    }
    let preview = Redaction.cut(escaped, limit: previewScalars)
    return bytes.count > previewWindowBytes && !preview.hasSuffix("…") ? preview + "…" : preview
  }

  /// A binary message's first bytes in hex (a binary envelope starts with `VC`, 56 43).
  static func binaryPreview(_ bytes: [UInt8]) -> String {
    let shown = bytes.prefix(previewBinaryBytes).map { byte in
      let hex = String(byte, radix: 16)
      return byte < 16 ? "0" + hex : hex
    }
    return shown.joined(separator: " ") + (bytes.count > previewBinaryBytes ? " …" : "")
  }
}
