import VCProtoJSON

/// A message of either direction through `Codable`, as ``ClientMessage`` and ``ServerMessage`` are
/// (the direction follows from the `type`, as ``MessageDecoder/decode(_:)-([UInt8])`` finds it).
extension AnyMessage: Codable {
  /// Writes the JSON value ``MessageEncoder`` writes for this message.
  public func encode(to encoder: any Encoder) throws {
    try MessageCoding.encode(frame: MessageEncoder().encode(self), to: encoder)
  }

  /// Reads a message as ``MessageDecoder/decode(_:)-([UInt8])`` does, with the ``ProtocolVersion`` in
  /// `decoder.userInfo[ProtocolVersion.codingUserInfoKey]`; throws as ``ClientMessage/init(from:)`` does.
  public init(from decoder: any Decoder) throws {
    self = try MessageCoding.decode(AnyMessage.self, from: decoder, direction: nil) {
      (messageDecoder, frame) throws(DecodingFailure) in try messageDecoder.decode(frame)
    }
  }
}
