/// The client engine's subscription table key: a session id with its hash computed once.
///
/// Swift's dictionary hashes a key again whenever it moves it: every key shifted back when another is
/// removed, every key when the table grows. For a `String` key that is a SipHash over its bytes each
/// time, which made `unsubscribe` the dearest request of the engine. With the hash kept in the key a
/// move hashes one integer. Equality is still the ids' `==`, and the hash is the id's own (seeded per
/// process, so an attacker cannot choose colliding ids).
struct SessionKey: Hashable, Sendable {
  /// The session id.
  let id: String
  /// `id.hashValue`.
  private let hash: Int

  init(_ id: String) {
    self.id = id
    hash = id.hashValue
  }

  static func == (a: SessionKey, b: SessionKey) -> Bool { a.hash == b.hash && a.id == b.id }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
