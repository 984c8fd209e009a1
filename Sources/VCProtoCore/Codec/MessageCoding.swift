import VCProtoJSON

/// The bridge between the typed messages and `Codable`: a message encodes as the JSON value
/// ``MessageEncoder`` writes for it, and decodes through ``MessageDecoder`` with the version in the
/// decoder's `userInfo` (``ProtocolVersion/codingUserInfoKey``), so both directions follow the
/// package's own rules.
package enum MessageCoding {
  /// Limits for reading back what ``MessageEncoder`` wrote (trusted, and possibly larger than a peer
  /// may send): none that a value built in memory could exceed.
  package static let ownOutput = JSONLimits(
    maxFrameBytes: .max, maxDepth: .max, maxStringBytes: .max, maxArrayElements: .max, maxObjectMembers: .max,
    maxNumberLength: .max, maxValues: .max)

  /// Encodes the frame `bytes` (``MessageEncoder``'s output) as a JSON value into `encoder`.
  package static func encode(frame bytes: [UInt8], to encoder: any Encoder) throws {
    let value: JSONValue
    do {
      value = try JSONReader(limits: ownOutput, knownKeys: .protocolNames).parse(bytes)
    } catch {
      // The encoder writes valid JSON (a test checks every vector), so this means a bug.
      // The frame itself is not attached: it may hold a secret.
      throw EncodingError.invalidValue(
        error.kind.rawValue,
        EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "MessageEncoder wrote \(error)"))
    }
    try value.encode(to: encoder)
  }

  /// Decodes a message of `type` from `decoder`: the version from its `userInfo`, the JSON value
  /// written back as a frame, then `decode` (a ``MessageDecoder`` call) with that version's options.
  /// A frame the decoder refuses throws `DecodingError.dataCorrupted` whose coding path leads to the
  /// first error finding's member and whose underlying error is the ``DecodingFailure``.
  package static func decode<Message>(
    _ type: Message.Type, from decoder: any Decoder, direction: MessageDirection?,
    _ decode: (MessageDecoder, [UInt8]) throws(DecodingFailure) -> Message
  ) throws -> Message {
    let version = try ProtocolVersion.required(by: decoder, decoding: type)
    var writer = JSONWriter()
    writer.write(try JSONValue(from: decoder))
    let messageDecoder = MessageDecoder(options: ValidationOptions(direction: direction, version: version))
    do {
      return try decode(messageDecoder, writer.bytes)
    } catch {
      throw failure(error, decoding: type, version: version, decoder)
    }
  }

  /// The `DecodingError` for a value of `type` refused with `failure`: `dataCorrupted`, the coding
  /// path leading to the first error finding's member, the ``DecodingFailure`` underneath.
  package static func failure(
    _ failure: DecodingFailure, decoding type: Any.Type, version: ProtocolVersion, _ decoder: any Decoder
  ) -> DecodingError {
    let first = failure.findings.first { $0.severity == .error }
    let path = (first.flatMap { JSONPointer.tokens($0.pointer) } ?? []).map { token in
      Int(token).map(JSONCodingKey.init(intValue:)) ?? JSONCodingKey(token)
    }
    let shown = failure.findings.isEmpty ? "no finding" : failure.description
    return DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath + path,
        debugDescription: "not a valid \(type) of protocol \(version): \(shown)", underlyingError: failure))
  }
}
