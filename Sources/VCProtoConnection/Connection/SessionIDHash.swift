import VCProtoCore
import VCProtoJSON

/// A seeded 64-bit hash of a session id's UTF-8 bytes (``SessionKey``): eight bytes at a time, each
/// word folded into the state by a 64 × 64 → 128-bit multiplication whose halves are xored, with the
/// length and two per-process random words (drawn from `Hasher`'s seed) mixed in.
///
/// It is not a keyed pseudo-random function like SipHash; what it must do is spread real ids over a
/// table and give a peer no way to aim ids at one slot without the process's seed. The ids are a
/// peer's choice (the server's session list on a client, the client's `subscribe` frames on a
/// server), but the table they go into (``SessionTable``, ``SessionIDSet``) holds at most the engine's
/// `maxSubscriptions` entries (``ClientConfiguration/maxSubscriptions``,
/// ``ServerConfiguration/maxSubscriptions``), so even ids whose hashes all collide cost a probe over
/// at most that many slots.
enum SessionIDHash {
  static let seeds: (UInt64, UInt64) = {
    var first = Hasher()
    first.combine(0x5E55_1011 as UInt64)
    var second = Hasher()
    second.combine(0x1D5 as UInt64)
    return (UInt64(UInt(bitPattern: first.finalize())), UInt64(UInt(bitPattern: second.finalize())) | 1)
  }()

  /// The hash of an id from its first ``SessionKey/inlineBytes`` UTF-8 bytes as six words (`words`,
  /// zero past the id) and its byte count, with `seeds`: what ``SessionKey/Digest`` makes with
  /// ``seeds`` (``SessionTable/index(ofId:)`` passes its copy of them). `rest`: the hash of the id's
  /// bytes past the words (``of(_:)``), asked only of an id longer than they are.
  @inline(__always)
  static func hash(
    words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64), count: Int, seeds: (UInt64, UInt64),
    rest: () -> UInt64
  ) -> Int {
    let (seed, multiplier) = seeds
    var state = seed ^ UInt64(count)
    state = fold(state ^ words.0, multiplier)
    state = fold(state ^ words.1, multiplier)
    state = fold(state ^ words.2, multiplier)
    state = fold(state ^ words.3, multiplier)
    state = fold(state ^ words.4, multiplier)
    state = fold(state ^ words.5, multiplier)
    if count > SessionKey.inlineBytes { state = fold(state ^ rest(), multiplier) }
    return Int(truncatingIfNeeded: fold(state ^ seed, 0x9E37_79B9_7F4A_7C15))
  }

  @inline(__always)
  static func fold(_ a: UInt64, _ b: UInt64) -> UInt64 {
    let product = a.multipliedFullWidth(by: b)
    return product.high ^ product.low
  }

  /// The hash of `bytes`, and whether they are all ASCII.
  @inline(__always)
  static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: Int, ascii: Bool) {
    let (seed, multiplier) = seeds
    var state = seed ^ UInt64(bytes.count)
    var seen: UInt64 = 0
    let tail = ByteWords.forEachWord(in: UnsafeRawBufferPointer(bytes)) { word in
      seen |= word
      state = fold(state ^ word, multiplier)
    }
    if bytes.count % 8 != 0 {
      // The last one to seven bytes, zero-padded (the length is already in the state).
      seen |= tail
      state = fold(state ^ tail, multiplier)
    }
    return (Int(truncatingIfNeeded: fold(state ^ seed, 0x9E37_79B9_7F4A_7C15)), seen & 0x8080_8080_8080_8080 == 0)
  }
}
