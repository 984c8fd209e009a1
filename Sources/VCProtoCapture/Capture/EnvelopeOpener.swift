import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// The seam through which `validate` and `decode` open compression envelopes.
///
/// ``standard`` opens them with the library (``Validator/validate(envelopedFrame:codec:)`` and
/// ``EnvelopeCodec``'s default limits); ``unavailable`` reports every envelope as
/// `envelope_unsupported` (what a build without envelope support would do).
public struct EnvelopeOpener: Sendable {
  /// The codec that opens envelopes; `nil` when envelopes are not supported.
  public var codec: EnvelopeCodec?

  /// Creates an opener that uses `codec` (`nil`: envelopes are unsupported).
  public init(codec: EnvelopeCodec?) {
    self.codec = codec
  }

  /// Opens envelopes with ``EnvelopeCodec`` and its default limits.
  public static let standard = EnvelopeOpener(codec: EnvelopeCodec())

  /// Opens nothing: every envelope is reported as `envelope_unsupported`.
  public static let unavailable = EnvelopeOpener(codec: nil)
}
