import VCProtoCore
import VCProtoJSON

/// The client engine's subscription table key (``SubscriptionTable``): a session id with its hash
/// computed once, so that the table never hashes an id's bytes again (a `String` key was hashed with
/// SipHash on every lookup, and again whenever the dictionary moved it).
///
/// Equality is the ids' exact scalars (``ExactString``), never `String`'s canonical equivalence: a
/// peer's `"e\u{301}"` and `"\u{e9}"` are two sessions. The hash is ``SessionIDHash``'s seeded
/// multiply-fold over the id's first 48 UTF-8 bytes and its length (``SessionIDHash/hash(words:count:seeds:rest:)``), in
/// about thirty instructions where `String`'s SipHash took about four hundred, on every history frame
/// and three times more per session a client opens (subscribe, its history, unsubscribe).
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
    /// The id's hash (``SessionIDHash/hash(words:count:seeds:rest:)``).
    let hash: Int
    /// The id's UTF-8 byte count.
    let count: Int
    /// The id's first ``SessionKey/inlineBytes`` UTF-8 bytes in memory order, zero past the id.
    let w0, w1, w2, w3, w4, w5: UInt64

    /// The digest of `id`: its first bytes copied once, and the hash made from the copy in straight
    /// code (no loop over the bytes: the history path runs this on every frame). `hash` replaces the
    /// id's hash when given (``SessionKey/init(_:hash:)``). `seeds`: ``SessionIDHash/seeds``, or a
    /// copy of them (``SessionTable/index(ofId:)`` passes its own, read without the global's one-time
    /// initialisation check).
    @inline(__always)
    init(_ id: String, hash: Int? = nil, seeds: (UInt64, UInt64) = SessionIDHash.seeds) {
      var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
      let count = SessionBytes.with(id) { bytes in
        let raw = UnsafeRawBufferPointer(bytes)
        withUnsafeMutableBytes(of: &words) { storage in
          storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[..<min(raw.count, SessionKey.inlineBytes)]))
        }
        return bytes.count
      }
      (w0, w1, w2, w3, w4, w5) = words
      self.count = count
      self.hash = hash ?? SessionIDHash.hash(words: words, count: count, seeds: seeds) { Self.rest(of: id) }
    }

    /// ``SessionIDHash`` of the bytes of `id` past the kept words (`id` is longer than they are).
    @inline(never)
    static func rest(of id: String) -> UInt64 {
      SessionBytes.with(id) { bytes in
        UInt64(UInt(bitPattern: SessionIDHash.of(UnsafeBufferPointer(rebasing: bytes[SessionKey.inlineBytes...])).hash))
      }
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
