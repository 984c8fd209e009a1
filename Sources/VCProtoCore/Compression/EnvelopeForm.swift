import VCProtoJSON

/// Which of the two envelope representations (STANDARDS.md#compression) a frame travels in.
public enum EnvelopeForm: Sendable, Hashable, CaseIterable {
  /// A binary WebSocket message: 9-byte header followed by the compressed stream.
  case binary
  /// A text WebSocket message: a JSON object of type `"compressed"` with base64 data.
  case text

  /// The capability that allows this form: `compression_binary` or `compression_text`.
  public var capability: String {
    switch self {
    case .binary: Capability.compressionBinary
    case .text: Capability.compressionText
    }
  }

  /// The `type` of a text envelope.
  package static let textEnvelopeType = "compressed"

  /// Whether a parsed text frame is a text envelope: an object whose `type` is the string
  /// `"compressed"` (STANDARDS.md#compression).
  package static func isTextEnvelope(_ object: JSONObject) -> Bool {
    object["type"]?.stringValue == textEnvelopeType
  }
}
