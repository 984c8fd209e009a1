import VCProtoJSON

/// What the connection engines need of the compression envelope (STANDARDS.md#compression): which
/// forms it opens, and opening one within its limits. The engines take it from their configuration
/// (`ClientConfiguration.envelopes`, `ServerConfiguration.envelopes`), so that the connection module
/// does not link zlib; `EnvelopeCodec`, of the module VCProtoEnvelope, is the implementation.
///
/// An engine with none, or with one that does not open a form, never offers (server) or asks for
/// (client) that form's capability, whatever its configured capabilities say: a peer is never
/// invited to send an envelope the engine cannot open. The engines open envelopes; they send every
/// frame plain, as a sender may (STANDARDS.md#compression).
public protocol EnvelopeOpening: Sendable {
  /// The forms this opens; an engine negotiates the ``EnvelopeForm/capability`` of these only.
  var openedForms: Set<EnvelopeForm> { get }

  /// The frame inside a binary envelope (a whole binary WebSocket message): the bytes it holds, not
  /// yet validated as JSON, or the envelope's error.
  func open(binary bytes: [UInt8]) throws(EnvelopeError) -> [UInt8]

  /// The frame inside a text envelope already parsed (a JSON object whose `type` is
  /// `"compressed"`): the bytes it holds, not yet validated as JSON, or the envelope's error.
  func open(textEnvelope object: JSONObject) throws(EnvelopeError) -> [UInt8]
}
