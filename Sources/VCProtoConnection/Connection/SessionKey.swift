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

  init(_ id: String) {
    self.id = id
    hash = id.utf8.withContiguousStorageIfAvailable { SessionIDHash.of($0).hash } ?? Self.hashOfCopy(id)
  }

  /// A key with a hash of the caller's choosing, for tests that need colliding hashes (`hash` must be
  /// a function of `id`'s bytes, as ``init(_:)``'s is).
  init(_ id: String, hash: Int) {
    self.id = id
    self.hash = hash
  }

  /// The hash of an id whose bytes are not contiguous (a bridged string): the same value, over a copy.
  @inline(never)
  static func hashOfCopy(_ id: String) -> Int {
    Array(id.utf8).withUnsafeBufferPointer(SessionIDHash.of).hash
  }

  /// Equal hashes, then the same bytes, compared in line (``SessionBytes``: on every history frame's
  /// subscription lookup, where a call to `String`'s comparison ran ten more lines of code).
  static func == (a: SessionKey, b: SessionKey) -> Bool {
    a.hash == b.hash && SessionBytes.with(a.id) { SessionBytes.same(b.id, $0) }
  }
}
