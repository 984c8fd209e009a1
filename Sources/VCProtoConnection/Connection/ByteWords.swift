import VCProtoCore
import VCProtoJSON

/// A string's UTF-8 bytes read as 64-bit words, the way the engines' byte hashes (``PositionHash``,
/// ``SessionIDHash``) consume them: every whole eight bytes as one little-endian word, then the last
/// zero to seven bytes zero-padded into one more (four at a time, then one by one).
enum ByteWords {
  /// Calls `body` with each whole eight-byte word of `bytes`, in order, and returns the rest: the
  /// last `bytes.count % 8` bytes as a zero-padded word (0 when there are none).
  @inline(__always)
  static func forEachWord(in bytes: UnsafeRawBufferPointer, _ body: (UInt64) -> Void) -> UInt64 {
    var offset = 0
    while offset + 8 <= bytes.count {
      body(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    if offset + 4 <= bytes.count {
      tail = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
      shift = 32
      offset += 4
    }
    while offset < bytes.count {
      tail |= UInt64(bytes[offset]) << shift
      shift += 8
      offset += 1
    }
    return tail
  }
}
