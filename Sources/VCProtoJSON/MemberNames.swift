/// The member names of one object, for finding a duplicate in time linear in the object's size.
///
/// Two names are the same key exactly when they are the same sequence of Unicode scalars, that is
/// when their UTF-8 bytes are equal (STANDARDS.md#exact-member-names). Canonically equivalent names that
/// differ in their scalars (`"é"` as U+00E9, and as `e` followed by U+0301) are different keys,
/// whatever the size of the object. Swift's `String` `==` and hashing compare by canonical
/// equivalence, so neither is used here.
///
/// While the object has fewer than ``linearLimit`` members a new name is compared with each earlier
/// one (cheaper than hashing for the few members a protocol object has, and no allocation); from then
/// on every name goes into a hash set of exact names (Swift's per-process seeded SipHash, so a peer
/// cannot choose colliding names). The set is filled once and then grown in place, so each name
/// costs amortised O(its length) whatever the object's size.
@usableFromInline package struct MemberNames {
  /// Objects below this many members are checked by direct comparison. (A literal, not a stored
  /// static, so that inlined code in other modules reads no lazily initialised global.)
  @inlinable package static var linearLimit: Int { 16 }

  private var set: Set<ExactString> = []

  package init() {}

  /// `true` when `name` differs from every name in `earlier` (the object's members so far, in order),
  /// and records it; `false` for a duplicate.
  ///
  /// `checks` counts the comparisons and hash insertions made (the work, measured by tests).
  @inline(__always)
  package mutating func isNew(_ name: String, among earlier: ArraySlice<JSONObject.Member>, checks: inout Int) -> Bool {
    if earlier.count < Self.linearLimit {
      // Most names differ in length: compare the (stored) lengths first, the bytes only when equal.
      // Indexing (not `for m in earlier`) reads each key in place instead of copying the member.
      let length = name.utf8.count
      checks += earlier.count
      for i in earlier.indices where earlier[i].key.utf8.count == length {
        if earlier[i].key.hasSameScalars(as: name) { return false }
      }
      return true
    }
    if set.isEmpty {
      set.reserveCapacity(earlier.count * 2)
      for m in earlier { set.insert(ExactString(m.key)) }
      checks += earlier.count
    }
    checks += 1
    return set.insert(ExactString(name)).inserted
  }

  /// Forgets every name, keeping the storage for the next object.
  @usableFromInline package mutating func removeAll() {
    if !set.isEmpty { set.removeAll(keepingCapacity: true) }
  }
}

extension String {
  /// `true` when `a` and `b` are stored as the same bits (the same small string, or the same buffer
  /// with the same count and flags), which makes them the same string. Strings are immutable values:
  /// one representation cannot stand for two texts.
  @inline(__always)
  package static func sameRepresentation(_ a: String, _ b: String) -> Bool {
    withUnsafeBytes(of: a) { a in
      withUnsafeBytes(of: b) { b in
        // Word by word (16 bytes on 64-bit platforms, 12 on 32-bit ones). Not `UTF8Bytes.equal` made to
        // take raw buffers: measured 2 % more instructions on the engine's history path.
        var offset = 0
        while offset + 4 <= a.count {
          guard
            a.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
              == b.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
          else { return false }
          offset += 4
        }
        return offset == a.count
      }
    }
  }

  /// ``hasSameScalars(as:)`` against an ASCII `name` (every member name and frame type the engines
  /// match), in a few instructions: equal UTF-8 lengths and `==`. That is exact here. A string
  /// canonically equivalent to an all-ASCII one but spelled with other scalars is longer in UTF-8:
  /// an ASCII scalar decomposes to nothing else, so each other scalar must decompose canonically to
  /// exactly one ASCII scalar (a singleton such as U+212A KELVIN SIGN for `K`), and it takes at least
  /// two bytes for that one. `==` compares the two representations first, which decides at once for
  /// equal small strings (a name of up to 15 bytes, and the parser's key for it); only a key of the
  /// same length that is not the name takes the full comparison.
  @inline(__always)
  package func hasSameScalars(asASCII name: String) -> Bool {
    assert(name.utf8.allSatisfy { $0 < 0x80 }, "not an ASCII name: \(name)")
    return utf8.count == name.utf8.count && self == name
  }

  /// `true` when both strings are the same sequence of Unicode scalars (equal UTF-8 bytes).
  /// Unlike `==`, canonically equivalent but different sequences are not equal.
  @inline(__always)
  package func hasSameScalars(as other: String) -> Bool {
    let count = utf8.count
    guard count == other.utf8.count else { return false }
    // The same representation is the same string: for equal small strings (up to 15 bytes, every
    // member name, and the parser's keys for them) that decides without touching the bytes. The
    // converse does not hold (one text, two buffers), so a difference goes on to the bytes.
    if String.sameRepresentation(self, other) { return true }
    // Native and small strings expose their UTF-8 contiguously: compare the two buffers directly,
    // eight bytes at a time (the generic comparison of two UTF-8 views walks them byte by byte
    // through their indices).
    let same = utf8.withContiguousStorageIfAvailable { mine in
      other.utf8.withContiguousStorageIfAvailable { theirs in UTF8Bytes.equal(mine, theirs) }
    }
    if let same = same ?? nil { return same }
    return utf8.elementsEqual(other.utf8)
  }
}

/// Byte comparison of two UTF-8 buffers, eight bytes at a time (`elementsEqual` on buffers is not
/// specialised into anything better than a loop over an iterator: about a hundred instructions for a
/// four-byte member name, on every member lookup).
/// Inlinable, so that other modules compare in line too (a call across modules cost as much as the
/// comparison of a 36-byte session id).
@usableFromInline package enum UTF8Bytes {
  /// `true` when `a` and `b` hold the same bytes.
  @inlinable @inline(__always)
  package static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = a.count
    guard count == b.count else { return false }
    guard count > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
    if pa == pb { return true }
    let ra = UnsafeRawPointer(pa)
    let rb = UnsafeRawPointer(pb)
    var offset = 0
    while offset + 8 <= count {
      guard
        ra.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == rb.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    if offset + 4 <= count {
      guard
        ra.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
          == rb.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      else { return false }
      offset += 4
    }
    while offset < count {
      guard pa[offset] == pb[offset] else { return false }
      offset += 1
    }
    return true
  }
}
