import VCProtoCore
import VCProtoJSON

/// The text envelope: one JSON object. Senders write exactly this, keys in this order, no
/// whitespace:
///
/// ```json
/// {"type":"compressed","encoding":"zlib","length":1234,"data":"eJzt..."}
/// ```
///
/// `length` is the declared uncompressed byte length (a JSON integer, 0...UInt32.max) and
/// `data` is the complete compressed stream in strict, padded standard base64. Receivers
/// parse it as JSON: any member order, whitespace and escapes, other members ignored
/// (see `EnvelopeCodec.open(textFrame:)`).
enum TextEnvelope {
  /// The `type` value of a text envelope.
  static let typeName = EnvelopeForm.textEnvelopeType

  /// Builds the text frame bytes deterministically (no JSON library involved; every
  /// value is ASCII and needs no escaping).
  static func encode(
    encoding: EnvelopeEncoding, declaredLength: UInt32, compressed: UnsafeBufferPointer<UInt8>
  ) -> [UInt8] {
    let prefix = Array(#"{"type":"compressed","encoding":""#.utf8)
    let middle = Array("\(encoding.name)\",\"length\":\(declaredLength),\"data\":\"".utf8)
    var frame = [UInt8]()
    frame.reserveCapacity(prefix.count + middle.count + Base64.encodedCount(compressed.count) + 2)
    frame.append(contentsOf: prefix)
    frame.append(contentsOf: middle)
    Base64.encode(compressed, appendingTo: &frame)
    frame.append(UInt8(ascii: "\""))
    frame.append(UInt8(ascii: "}"))
    return frame
  }
}
