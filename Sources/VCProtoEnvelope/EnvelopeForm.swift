import VCProtoCore
import VCProtoJSON

/// Which of the two envelope representations to produce.
public enum EnvelopeForm: Sendable, Hashable, CaseIterable {
  /// A binary WebSocket message: 9-byte header followed by the compressed stream.
  case binary
  /// A text WebSocket message: a JSON object of type `"compressed"` with base64 data.
  case text
}
