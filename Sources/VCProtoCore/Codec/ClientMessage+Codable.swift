import VCProtoJSON

/// A `ClientMessage` through `Codable`: the JSON value ``MessageEncoder`` writes for it, read back by
/// ``MessageDecoder`` with the protocol version in the decoder's `userInfo`.
///
/// Encoding gives the same JSON value as ``MessageEncoder/encode(_:)-(ClientMessage)``, members in the
/// encoder's order (Foundation's `JSONEncoder` with `outputFormatting` `[.sortedKeys,
/// .withoutEscapingSlashes]` gives stable text); <doc:PersistingMessages> says what survives.
/// Secrets (`connect`'s `api_key` and `auth_response`) are written as the wire carries them.
extension ClientMessage: Codable {
  /// Writes the JSON value ``MessageEncoder`` writes for this message.
  public func encode(to encoder: any Encoder) throws {
    try MessageCoding.encode(frame: MessageEncoder().encode(self), to: encoder)
  }

  /// Reads a message as ``MessageDecoder/decodeClientMessage(_:)`` does, with the ``ProtocolVersion`` in
  /// `decoder.userInfo[ProtocolVersion.codingUserInfoKey]`. Throws `DecodingError.valueNotFound`
  /// when that is absent, and `DecodingError.dataCorrupted` for a message the decoder refuses (its
  /// coding path leads to the first error finding's member; the underlying error is the
  /// ``DecodingFailure`` with every finding).
  public init(from decoder: any Decoder) throws {
    self = try MessageCoding.decode(ClientMessage.self, from: decoder, direction: .clientToServer) {
      (messageDecoder, frame) throws(DecodingFailure) in try messageDecoder.decodeClientMessage(frame)
    }
  }
}
