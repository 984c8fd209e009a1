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
  /// What the key compares first: the id's hash, byte count and first bytes.
  let digest: Digest

  /// The id's hash (``SessionIDHash`` of its UTF-8 bytes).
  var hash: Int { digest.hash }
  /// The id's UTF-8 byte count.
  var count: Int { digest.count }

  /// The bytes of an id kept in the key itself (six words).
  static let inlineBytes = 48

  /// An id's hash, byte count and first ``SessionKey/inlineBytes`` bytes: all of a UUID's 36, so that
  /// two keys of real ids compare in line without reading either string. A lookup makes one from the
  /// id it has (``SessionTable/index(ofId:)``), without a key (no reference to the id taken).
  struct Digest: Equatable, Sendable {
    /// The id's hash (``SessionIDHash`` of its UTF-8 bytes).
    let hash: Int
    /// The id's UTF-8 byte count.
    let count: Int
    /// The id's first ``SessionKey/inlineBytes`` UTF-8 bytes as the hash reads them (little-endian
    /// words, the last one zero-padded), zero past the id.
    let w0, w1, w2, w3, w4, w5: UInt64

    /// The digest of `id`: its bytes read once, for the hash and the kept words together. `hash`
    /// replaces the id's hash when given (``SessionKey/init(_:hash:)``).
    @inline(__always)
    init(_ id: String, hash: Int? = nil) {
      var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
      let (hashed, count) = SessionBytes.with(id) { bytes in
        let hashed = withUnsafeMutableBytes(of: &words) { storage in
          SessionIDHash.of(bytes) { number, word in
            if number < 6 { storage.storeBytes(of: word, toByteOffset: number &* 8, as: UInt64.self) }
          }
        }
        return (hashed.hash, bytes.count)
      }
      self.hash = hash ?? hashed
      self.count = count
      (w0, w1, w2, w3, w4, w5) = words
    }
  }

  init(_ id: String) {
    self.init(id, hash: nil)
  }

  /// A key with a hash of the caller's choosing, for tests that need colliding hashes (`hash` must be
  /// a function of `id`'s bytes, as ``init(_:)``'s is).
  init(_ id: String, hash: Int?) {
    self.id = id
    digest = Digest(id, hash: hash)
  }

  /// Equal hashes and the same bytes. An id of at most ``inlineBytes`` bytes (every real one) is
  /// compared by the key's own words, in line, without reading the string (a lookup runs this on
  /// every history frame: comparing through `String`'s storage took a function of seven code lines);
  /// a longer one by its remaining bytes too, out of line.
  static func == (a: SessionKey, b: SessionKey) -> Bool {
    a.isId(b.id, digest: b.digest)
  }

  /// Whether this key is `id`'s, whose digest is `digest` (what `==` with `SessionKey(id)` says).
  @inline(__always)
  func isId(_ id: String, digest: Digest) -> Bool {
    guard self.digest == digest else { return false }
    return digest.count <= Self.inlineBytes || Self.sameLongIds(self.id, id)
  }

  /// Whether two ids longer than ``inlineBytes`` are the same bytes.
  @inline(never)
  static func sameLongIds(_ a: String, _ b: String) -> Bool {
    SessionBytes.with(a) { SessionBytes.same(b, $0) }
  }
}
