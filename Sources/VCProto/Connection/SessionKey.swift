/// The client engine's subscription table key (``SubscriptionTable``): a session id with its hash
/// computed once, so that the table never hashes an id's bytes again (a `String` key was hashed with
/// SipHash on every lookup, and again whenever the dictionary moved it).
///
/// Equality is the ids' `==` (canonical equivalence), and the hash agrees with it:
/// - An all-ASCII id (every real one: a UUID) is hashed by ``SessionIDHash``, a seeded
///   multiply-fold over its bytes, in under a hundred instructions where `String`'s SipHash took
///   about four hundred, three times per session a client opens (subscribe, its history,
///   unsubscribe).
/// - An id with other scalars is canonically equivalent to an ASCII one exactly when each of those
///   scalars is one of Unicode's three canonical singletons onto ASCII (U+037E for `;`, U+1FEF for
///   `` ` ``, U+212A for `K`; ASCIINameComparisonTests and SessionKeyTests check this over every
///   scalar): such an id is hashed as that ASCII spelling, any other as `String` hashes it (which is
///   canonical).
struct SessionKey: Equatable, Sendable {
  /// The session id.
  let id: String
  /// The id's hash (``SessionIDHash``, or as described above).
  let hash: Int

  init(_ id: String) {
    self.id = id
    if let (hash, ascii) = id.utf8.withContiguousStorageIfAvailable(SessionIDHash.of), ascii {
      self.hash = hash
    } else {
      hash = Self.hashWithOtherScalars(id)
    }
  }

  /// A key with a hash of the caller's choosing, for tests that need colliding hashes (`hash` must be
  /// a function of `id` up to canonical equivalence, as ``init(_:)``'s is).
  init(_ id: String, hash: Int) {
    self.id = id
    self.hash = hash
  }

  /// The hash of an id that is not all ASCII (or whose bytes are not contiguous).
  @inline(never)
  static func hashWithOtherScalars(_ id: String) -> Int {
    var spelling: [UInt8] = []
    spelling.reserveCapacity(id.utf8.count)
    for scalar in id.unicodeScalars {
      if let ascii = asciiEquivalent(of: scalar) { spelling.append(ascii) } else { return id.hashValue }
    }
    return spelling.withUnsafeBufferPointer(SessionIDHash.of).hash
  }

  /// The ASCII scalar `scalar` is canonically equivalent to, if any (itself when ASCII).
  static func asciiEquivalent(of scalar: Unicode.Scalar) -> UInt8? {
    switch scalar.value {
    case 0..<0x80: return UInt8(scalar.value)
    case 0x037E: return UInt8(ascii: ";")  // GREEK QUESTION MARK
    case 0x1FEF: return UInt8(ascii: "`")  // GREEK VARIA
    case 0x212A: return UInt8(ascii: "K")  // KELVIN SIGN
    default: return nil
    }
  }

  /// Equal hashes, then the same bytes (in line: ids of equal bytes are equal strings), and only when
  /// the bytes differ `String`'s `==` (canonically equivalent spellings). `==` alone on two session ids
  /// (36-byte uuids, held in buffers) called three functions of the standard library's comparison on
  /// every lookup, code that nothing else on the engine's path runs.
  static func == (a: SessionKey, b: SessionKey) -> Bool {
    a.hash == b.hash && (a.id.hasSameScalars(as: b.id) || a.id == b.id)
  }
}
