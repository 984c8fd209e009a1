import VCProtoCore
import VCProtoJSON

/// The client engine's subscription table key (``SubscriptionTable``): a session id with its hash
/// computed once, so that the table never hashes an id's bytes again (a `String` key was hashed with
/// SipHash on every lookup, and again whenever the dictionary moved it).
///
/// Equality is the ids' exact scalars (``ExactString``), never `String`'s canonical equivalence: a
/// peer's `"e\u{301}"` and `"\u{e9}"` are two sessions. The hash is ``SessionIDHash``, a seeded
/// multiply-fold over the id's UTF-8 bytes, in under a hundred instructions where `String`'s SipHash
/// took about four hundred, three times per session a client opens (subscribe, its history,
/// unsubscribe).
struct SessionKey: Equatable, Sendable {
  /// The session id.
  let id: String
  /// The id's hash (``SessionIDHash`` of its UTF-8 bytes).
  let hash: Int
  /// The id's UTF-8 byte count.
  let count: Int
  /// The id's first ``inlineBytes`` UTF-8 bytes, zero-padded, in memory order: all of a UUID's 36.
  let w0, w1, w2, w3, w4, w5: UInt64

  /// The bytes of an id kept in the key itself (six words).
  static let inlineBytes = 48

  init(_ id: String) {
    self.init(id, hash: nil)
  }

  /// A key with a hash of the caller's choosing, for tests that need colliding hashes (`hash` must be
  /// a function of `id`'s bytes, as ``init(_:)``'s is).
  init(_ id: String, hash: Int?) {
    self.id = id
    var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    let (hashed, count) = SessionBytes.with(id) { bytes in
      let raw = UnsafeRawBufferPointer(bytes)
      withUnsafeMutableBytes(of: &words) { storage in
        storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[..<min(raw.count, Self.inlineBytes)]))
      }
      return (SessionIDHash.of(bytes).hash, bytes.count)
    }
    self.hash = hash ?? hashed
    self.count = count
    (w0, w1, w2, w3, w4, w5) = words
  }

  /// Equal hashes and the same bytes. An id of at most ``inlineBytes`` bytes (every real one) is
  /// compared by the key's own words, in line, without reading the string (a lookup runs this on
  /// every history frame: comparing through `String`'s storage took a function of seven code lines);
  /// a longer one by its remaining bytes too, out of line.
  static func == (a: SessionKey, b: SessionKey) -> Bool {
    guard a.hash == b.hash, a.count == b.count, a.w0 == b.w0, a.w1 == b.w1, a.w2 == b.w2, a.w3 == b.w3,
      a.w4 == b.w4, a.w5 == b.w5
    else { return false }
    return a.count <= inlineBytes || sameLongIds(a.id, b.id)
  }

  /// Whether two ids longer than ``inlineBytes`` are the same bytes.
  @inline(never)
  static func sameLongIds(_ a: String, _ b: String) -> Bool {
    SessionBytes.with(a) { SessionBytes.same(b, $0) }
  }
}
