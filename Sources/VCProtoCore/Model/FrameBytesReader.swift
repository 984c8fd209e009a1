import VCProtoJSON

/// A reader over a whole frame's bytes, which ``MessageDecoder``'s direct path sets up and runs the
/// generated decoders over: ``BytesReader`` (the typed message) or ``CheckingReader`` (the verdict
/// only). The path itself (the leading `type`, the frame's end, the limits) is written once for both.
package protocol FrameBytesReader: ModelReader where Key == JSONParser.Key {
  /// A reader of the frame in `buffer`, under `limits`, with the member names of `knownKeys` known.
  init(buffer: UnsafeBufferPointer<UInt8>, limits: JSONLimits, knownKeys: KnownKeys)
  /// The cursor over the frame's bytes.
  var parser: JSONParser { get set }
  /// The bound on each list of a handshake message.
  var handshakeListLimit: Int { get set }
  /// The array whose storage the buffer is, while the reader runs (``BytesReader/frame``).
  var frame: UnsafePointer<[UInt8]>? { get set }
}

extension BytesReader: FrameBytesReader {}
