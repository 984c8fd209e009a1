extension JSONObject {
  /// This message's dedup position in `family`'s terms (``Subscription/delivered``): ``PositionHash``
  /// of its `uuid` string (0.2.0/0.3.0), or its `seq` (0.4.0) or `offset` (0.5.0) integer; `nil` when
  /// the member is absent or of another kind. The same as reading the member with the subscript, but
  /// in place: the subscript returns a copy of the value (a reference count written and released on
  /// memory the engine otherwise only reads). The engine's loop uses ``uuidPosition`` and
  /// ``inPlacePosition(named:session:)``, which read the same.
  func position(in family: VersionFamily) -> Int? {
    switch family {
    case .messageId: return uuidPosition
    case .seq: return self["seq"]?.intValue
    case .offset: return self["offset"]?.intValue
    }
  }

  /// ``PositionHash`` of the `uuid` string, read in place. Nothing here is a call the compiler cannot
  /// see through while a member is borrowed: such a call makes it copy the message first, which is a
  /// reference count written to the message's storage (an atomic write, on a line that must first be
  /// fetched when the frame is not in the cache), once per message of every `session_history`.
  @inline(__always)
  var uuidPosition: Int? {
    for i in members.indices where members[i].key.hasSameScalars(asASCII: "uuid") {
      if case .string(let uuid) = members[i].value { return PositionHash.of(uuid) }
      return nil
    }
    return nil
  }

  /// What the engine needs of a 0.4.0/0.5.0 message, read in place in one pass (for the same reason as
  /// ``uuidPosition``): the integer member `name` (`self[name]?.intValue`; `name` is ASCII), and
  /// whether a string `session_id` names `session`. ``InPlacePosition/undecided`` when reading bytes
  /// cannot decide: a number literal whose bytes are not contiguous, or a `session_id` with other
  /// bytes (which may still be a canonically equivalent string); the caller then reads the message
  /// the plain way.
  @inline(__always)
  func inPlacePosition(named name: String, session: String) -> InPlacePosition {
    assert(name.utf8.allSatisfy { $0 < 0x80 }, "not an ASCII name: \(name)")
    // The session id is compared as bytes, in line; a string whose bytes are not contiguous (none on
    // Linux, a bridged one elsewhere) leaves the decision to the caller.
    return session.utf8.withContiguousStorageIfAvailable { session in
      inPlacePosition(name: name, session: session)
    } ?? .undecided
  }

  @inline(__always)
  private func inPlacePosition(name: String, session: UnsafeBufferPointer<UInt8>) -> InPlacePosition {
    var position: Int?
    var seenPosition = false
    var seenSession = false
    var sameSession = true
    let nameBytes = name.utf8.count
    // From the last member: the real server builds a message by `assoc`-ing `session_id` and
    // `offset` onto the canonical one (`replication.clj` lines 1560, 1633 and 1659 at `1e7bcc30`;
    // a Clojure map of up to eight entries keeps that order when written), so both are found in
    // the last two members and the loop stops there instead of reading every member's lines
    // (callgrind, 758 first-contact histories: 1,100 fewer instructions and 22 fewer first-level data
    // misses a history). Any order gives the same answer: the keys of a parsed object are unique
    // (`JSONReader` refuses a repeated one), as `JSONObject` asks of one built by hand.
    for i in members.indices.reversed() {
      // ``String/hasSameScalars(asASCII:)`` with the key's length read once for both names.
      let keyBytes = members[i].key.utf8.count
      if keyBytes == nameBytes, !seenPosition, members[i].key == name {
        seenPosition = true
        guard case .number(let number) = members[i].value else { continue }
        guard let value = number.literal.utf8.withContiguousStorageIfAvailable({ IntegerLiteral.value(of: $0) })
        else { return .undecided }
        position = value.flatMap { Int(exactly: $0) }
        if seenSession { break }
      } else if keyBytes == 10, !seenSession, members[i].key == "session_id" {
        seenSession = true
        guard case .string(let owner) = members[i].value else { continue }
        guard let same = owner.utf8.withContiguousStorageIfAvailable({ UTF8Bytes.equal($0, session) })
        else { return .undecided }
        sameSession = same
        if seenPosition { break }
      }
    }
    guard let position else { return .absent }
    return sameSession ? .position(position) : .undecided
  }
}

/// What ``JSONObject/inPlacePosition(named:session:)`` read.
enum InPlacePosition {
  /// The message's position; it names no other session.
  case position(Int)
  /// No integer position: the message is dropped.
  case absent
  /// Reading in place cannot decide: read the message with the subscript.
  case undecided
}
