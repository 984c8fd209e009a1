import VCProtoCore
import VCProtoJSON

/// The binary envelope: a 9-byte header followed by one complete compressed stream.
///
/// | Offset | Size | Field                                           |
/// |--------|------|-------------------------------------------------|
/// | 0      | 2    | magic, ASCII `"VC"` (0x56 0x43)                 |
/// | 2      | 1    | format version, 0x01                            |
/// | 3      | 1    | flags, reserved, 0x00                           |
/// | 4      | 1    | encoding id: 1 zlib, 2 gzip                     |
/// | 5      | 4    | declared uncompressed length, UInt32 big-endian |
/// | 9      | n    | compressed stream, nothing after its end        |
enum BinaryEnvelope {
  /// `"VC"`.
  static let magic: (UInt8, UInt8) = (0x56, 0x43)
  /// The only format version defined.
  static let version: UInt8 = 1
  /// Bytes before the compressed stream.
  static let headerSize = 9

  /// A validated header.
  struct Header: Equatable {
    var encoding: EnvelopeEncoding
    var declaredLength: UInt32
  }

  /// Whether `bytes` starts with the magic. JSON text can never start with `V`, so this
  /// tells a binary envelope from a plain JSON frame.
  static func hasMagic(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    bytes.count >= 2 && bytes[0] == magic.0 && bytes[1] == magic.1
  }

  /// Validates the header fields in wire order. The first present field that is wrong
  /// decides the error; if every present byte is valid but fewer than 9 exist, the error
  /// is `truncatedHeader`.
  static func parseHeader(_ bytes: UnsafeBufferPointer<UInt8>) throws(EnvelopeError) -> Header {
    let count = bytes.count
    if count > 0 && bytes[0] != magic.0 { throw .badMagic }
    if count > 1 && bytes[1] != magic.1 { throw .badMagic }
    if count > 2 && bytes[2] != version { throw .unsupportedVersion }
    if count > 3 && bytes[3] != 0 { throw .reservedFlags }
    if count > 4 && EnvelopeEncoding(wireID: bytes[4]) == nil { throw .unknownEncoding }
    guard count >= headerSize, let encoding = EnvelopeEncoding(wireID: bytes[4]) else {
      throw .truncatedHeader
    }
    let length =
      UInt32(bytes[5]) << 24 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 8 | UInt32(bytes[8])
    return Header(encoding: encoding, declaredLength: length)
  }

  /// Writes a header for `header` into the first 9 bytes of `buffer`.
  static func writeHeader(_ header: Header, into buffer: inout [UInt8]) {
    precondition(buffer.count >= headerSize)
    buffer[0] = magic.0
    buffer[1] = magic.1
    buffer[2] = version
    buffer[3] = 0
    buffer[4] = header.encoding.wireID
    buffer[5] = UInt8(truncatingIfNeeded: header.declaredLength >> 24)
    buffer[6] = UInt8(truncatingIfNeeded: header.declaredLength >> 16)
    buffer[7] = UInt8(truncatingIfNeeded: header.declaredLength >> 8)
    buffer[8] = UInt8(truncatingIfNeeded: header.declaredLength)
  }
}
