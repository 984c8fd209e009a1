import VCProtoCore
import VCProtoJSON

/// The dedup position of a 0.2.0/0.3.0 message: a 64-bit hash of its `uuid`'s UTF-8 bytes.
///
/// Not `String.hashValue`, which runs SipHash over the string (and a normalization check) and is
/// then hashed again by the set of delivered positions: this is a few multiply-xor rounds over 8-byte
/// words (a uuid is 36 bytes: 5 rounds). It needs no secret seed: the positions go into a ``PositionWindow``,
/// which mixes them again with its own per-process seed, so colliding values cost a peer nothing but
/// what a duplicate costs. A collision (crafted or not) can only make an insert a replace, which an
/// app that upserts by `(session, uuid)` applies the same way.
enum PositionHash {
  /// The hash of `text`'s UTF-8 bytes. Inlined, and never copies `text`: the engine reads the uuid in
  /// place in the frame, and a copy would be a reference-count write to the string's storage (an
  /// atomic write to memory the engine otherwise only reads, on every message of a `session_history`).
  @inline(__always)
  static func of(_ text: String) -> Int {
    // A uuid's 36 bytes (every real one), read in place, in straight code; nothing out of line is
    // called while the bytes are borrowed (a call there made the string retained and released).
    let uuid = text.utf8.withContiguousStorageIfAvailable { $0.count == 36 ? hash36(UnsafeRawBufferPointer($0)) : nil }
    if case .some(.some(let h)) = uuid { return Int(truncatingIfNeeded: h) }
    return Int(truncatingIfNeeded: hash(other: text))
  }

  /// ``of(_:)`` of a text of another length, or whose bytes are not contiguous (out of line: rare).
  /// Native and small strings expose their bytes without a copy; the rest are read byte by byte.
  @inline(never)
  static func hash(other text: String) -> UInt64 {
    text.utf8.withContiguousStorageIfAvailable { hash(UnsafeRawBufferPointer($0)) } ?? hash(streaming: text.utf8)
  }

  /// ``hash(_:)`` of a string whose bytes are not contiguous (a bridged string), read one at a time;
  /// the same value.
  static func hash(streaming bytes: String.UTF8View) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
    var word: UInt64 = 0
    var shift: UInt64 = 0
    for byte in bytes {
      word |= UInt64(byte) << shift
      shift += 8
      if shift == 64 {
        h = (h ^ word) &* multiplier
        h ^= h >> 29
        word = 0
        shift = 0
      }
    }
    h = (h ^ word) &* multiplier
    h ^= h >> 32
    return h
  }

  /// ``hash(_:)`` of exactly 36 bytes (a uuid's text), unrolled: four words and a four-byte tail, no
  /// loop and no length test (about half the instructions of the loop, on every message of a 0.2.0
  /// or 0.3.0 history).
  @inline(__always)
  static func hash36(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ 36
    for offset in stride(from: 0, to: 32, by: 8) {
      h = (h ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* multiplier
      h ^= h >> 29
    }
    let tail = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 32, as: UInt32.self)))
    h = (h ^ tail) &* multiplier
    h ^= h >> 32
    return h
  }

  /// 64-bit multiply-xor hash over 8-byte little-endian words, then the tail, then the length.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var h: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
    let tail = ByteWords.forEachWord(in: bytes) { word in
      h = (h ^ word) &* multiplier
      h ^= h >> 29
    }
    h = (h ^ tail) &* multiplier
    h ^= h >> 32
    return h
  }
}
