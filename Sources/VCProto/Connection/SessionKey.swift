/// The client engine's subscription table key: a session id, hashed once and, when it is a UUID as the
/// real server writes them, held as its 128 bits.
///
/// Swift's dictionary hashes a key again whenever it moves it (every key shifted back when another is
/// removed, every key when the table grows), and compares the probed keys with `==`. For a `String`
/// key both read the id's bytes through the Unicode-aware `String` paths, and in a large table the
/// stored key's bytes are one more cache miss per lookup. A lowercase 8-4-4-4-12 UUID (every session
/// id of the real system) is kept as two integers instead: a hash of 16 bytes, and a comparison that
/// never reads the stored string. Any other id keeps its own hash (`hashValue`), computed once.
///
/// Equality is still the ids' `==`: a packed UUID is ASCII, and the only strings canonically
/// equivalent to an ASCII string but spelled otherwise contain a singleton that decomposes to an ASCII
/// scalar (U+037E, U+1FEF, U+212A: `;`, a backtick, `K`), none of them a hexadecimal digit or `-`
/// (`SessionKeyTests` checks every scalar); so a UUID equals no other spelling, and a packed key
/// never equals an unpacked one.
struct SessionKey: Hashable, Sendable {
  /// The session id.
  let id: String
  /// The UUID's first and last 64 bits (packed), or `id.hashValue` and 0.
  private let high: UInt64
  private let low: UInt64
  private let packed: Bool

  init(_ id: String) {
    self.id = id
    if let bits = id.utf8.withContiguousStorageIfAvailable(Self.uuidBits), let (high, low) = bits {
      (self.high, self.low, packed) = (high, low, true)
    } else {
      (high, low, packed) = (UInt64(bitPattern: Int64(id.hashValue)), 0, false)
    }
  }

  static func == (a: SessionKey, b: SessionKey) -> Bool {
    guard a.packed == b.packed, a.high == b.high, a.low == b.low else { return false }
    return a.packed || a.id == b.id
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(high)
    hasher.combine(low)
  }

  /// The 128 bits of a lowercase UUID `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, or `nil`.
  static func uuidBits(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
    guard bytes.count == 36 else { return nil }
    var high: UInt64 = 0
    var low: UInt64 = 0
    var digits = 0
    for index in 0..<36 {
      let byte = bytes[index]
      if index == 8 || index == 13 || index == 18 || index == 23 {
        guard byte == UInt8(ascii: "-") else { return nil }
        continue
      }
      let value: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte &- UInt8(ascii: "a") &+ 10
      default: return nil
      }
      if digits < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
      digits += 1
    }
    return (high, low)
  }
}
