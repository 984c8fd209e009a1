import VCProtoJSON

/// A version through `Codable`: its string (`"0.5.0"`); any other string is a `DecodingError`.
extension ProtocolVersion: Codable {
  /// The `userInfo` key under which a decoder holds the ``ProtocolVersion`` that typed messages
  /// decode with (``ClientMessage``, ``ServerMessage``, ``AnyMessage``): the one the connection
  /// negotiated, as ``MessageDecoder`` takes it. Decoding a message throws when it is absent:
  ///
  /// ```swift
  /// let decoder = JSONDecoder()
  /// decoder.userInfo[ProtocolVersion.codingUserInfoKey] = ProtocolVersion.v0_5_0
  /// let message = try decoder.decode(ServerMessage.self, from: stored)
  /// ```
  ///
  /// Its raw value is `vcproto.protocolVersion`.
  public static let codingUserInfoKey = CodingUserInfoKey(rawValue: "vcproto.protocolVersion")!

  /// The version in `decoder`'s `userInfo` under ``codingUserInfoKey``, for decoding a `type`;
  /// throws `DecodingError.valueNotFound` naming the key when it is absent or not a
  /// ``ProtocolVersion`` (the library never assumes a version).
  static func required(by decoder: any Decoder, decoding type: Any.Type) throws -> ProtocolVersion {
    if let version = decoder.userInfo[codingUserInfoKey] as? ProtocolVersion { return version }
    let found = decoder.userInfo[codingUserInfoKey].map { " (it holds a \(Swift.type(of: $0)))" } ?? ""
    throw DecodingError.valueNotFound(
      ProtocolVersion.self,
      DecodingError.Context(
        codingPath: decoder.codingPath,
        debugDescription:
          "decoding \(type) needs the protocol version: set the decoder's userInfo[ProtocolVersion.codingUserInfoKey]"
          + " (\"\(codingUserInfoKey.rawValue)\") to a ProtocolVersion\(found)"))
  }
}
