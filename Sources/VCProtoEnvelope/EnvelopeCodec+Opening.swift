import VCProtoCore
import VCProtoJSON

/// The codec is what the connection engines open envelopes with (`ClientConfiguration.envelopes`,
/// `ServerConfiguration.envelopes`): ``open(binary:)`` and ``open(textEnvelope:)`` within its
/// ``limits``.
extension EnvelopeCodec: EnvelopeOpening {
  /// Both forms: an engine given the codec may negotiate `compression_binary` and `compression_text`.
  public var openedForms: Set<EnvelopeForm> { Set(EnvelopeForm.allCases) }
}
