/// Validating scans: a value checked exactly as ``JSONParser/parseValue()`` checks it (grammar,
/// UTF-8, escapes, numbers, member names unique by their exact scalars, every ``JSONLimits``) and
/// stepped over without building a ``JSONValue``: how a member the model keeps as ``RawJSON`` is
/// validated. Nothing is allocated but the names of an object of ``MemberNames/linearLimit`` members
/// or more, or of one with an escaped name, which are compared as Strings in a hash set (linear work,
/// as in ``MemberNames``); smaller objects' names are compared byte for byte where they lie.
extension JSONParser {
  /// Checks the value at `pos` and steps over it (the caller has counted it, as for `parseValue`).
  package mutating func scanValue() throws(JSONReadError) {
    guard pos < bytes.count else {
      throw JSONReadError(.invalidJSON, offset: pos, "unexpected end of input, expected a value")
    }
    switch bytes[pos] {
    case UInt8(ascii: "{"): try scanObject()
    case UInt8(ascii: "["): try scanArray()
    case UInt8(ascii: "\""): _ = try scanString()
    case UInt8(ascii: "t"): try expectLiteral("true")
    case UInt8(ascii: "f"): try expectLiteral("false")
    case UInt8(ascii: "n"): try expectLiteral("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
    default:
      throw JSONReadError(.invalidJSON, offset: pos, "unexpected character, expected a value")
    }
  }

  /// The value at `pos`, checked by ``scanValue()``, kept as its bytes.
  package mutating func scanRawValue() throws(JSONReadError) -> RawJSON {
    let start = pos
    try scanValue()
    return RawJSON(validatedBytes: Array(UnsafeBufferPointer(rebasing: bytes[start..<pos])))
  }

  /// Checks the string at `pos` (its opening quote) as ``parseString()`` does and steps over it;
  /// `true` when it has escapes. Its length after unescaping is held to ``JSONLimits/maxStringBytes``.
  package mutating func scanString() throws(JSONReadError) -> Bool {
    let open = pos
    pos += 1
    var runStart = pos
    var length = 0
    var escaped = false
    while pos < bytes.count {
      skipPlainASCII()
      guard pos < bytes.count else { break }
      let b = bytes[pos]
      if b == UInt8(ascii: "\"") {
        length += pos - runStart
        if length > limits.maxStringBytes { throw stringTooLong(open) }
        pos += 1
        return escaped
      } else if b == UInt8(ascii: "\\") {
        length += pos - runStart
        length += UTF8.width(try readEscape())
        runStart = pos
        escaped = true
      } else if b < 0x20 {
        throw JSONReadError(.invalidJSON, offset: pos, "control character in a string must be escaped")
      } else if b < 0x80 {
        pos += 1
      } else if !skipCommonUTF8() {
        try skipUTF8Sequence()
      }
    }
    throw JSONReadError(.invalidJSON, offset: open, "unterminated string")
  }

  /// Checks the object at `pos` (its `{`) and steps over it.
  package mutating func scanObject() throws(JSONReadError) {
    if try openContainer(closingWith: UInt8(ascii: "}")) { return }
    let result = ScannedNames.with { names -> Result<Void, JSONReadError> in
      do throws(JSONReadError) {
        return .success(try scanMembers(&names))
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  /// The members of the object being scanned, from its first name to its `}`.
  private mutating func scanMembers(_ names: inout ScannedNames) throws(JSONReadError) {
    var members = 0
    while true {
      try expectMemberName()
      let keyOffset = pos
      let escaped = try scanString()
      let key = Key(start: keyOffset + 1, count: pos - keyOffset - 2)
      guard try noteScannedName(key, escaped: escaped, in: &names) else {
        throw JSONReadError(.duplicateKey, offset: keyOffset, "duplicate key")
      }
      try afterMemberName()
      try countValue()
      try scanValue()
      if try afterMember(members, keyOffset: keyOffset) { return }
      members += 1
    }
  }

  /// Checks the array at `pos` (its `[`) and steps over it.
  package mutating func scanArray() throws(JSONReadError) {
    if try openContainer(closingWith: UInt8(ascii: "]")) { return }
    var elements = 0
    while true {
      skipWhitespace()
      try countValue()
      try scanValue()
      if try afterElement(elements) { return }
      elements += 1
    }
  }

  /// Records the name at `key` (the characters between its quotes; `escaped`: it has escapes) among
  /// `names`, the object's names so far; `false` when the object already has it.
  ///
  /// Without escapes a name's bytes are its UTF-8, so names are compared byte for byte. An escaped
  /// name, or the object's ``MemberNames/linearLimit``th one, moves the object to a set of exact
  /// Strings (the escaped name unescaped, as ``JSONReader`` compares it).
  package mutating func noteScannedName(_ key: Key, escaped: Bool, in names: inout ScannedNames) throws(JSONReadError)
    -> Bool
  {
    if names.set == nil, !escaped, names.count < names.slots.count {
      stats.keyChecks += names.count
      if let base = bytes.baseAddress {
        let name = UnsafeBufferPointer(start: base + key.start, count: key.count)
        for i in 0..<names.count where names.slots[i].count == key.count {
          if UTF8Bytes.equal(UnsafeBufferPointer(start: base + names.slots[i].start, count: key.count), name) {
            return false
          }
        }
      }
      names.slots[names.count] = key
      names.count += 1
      return true
    }
    if names.set == nil {
      var set = Set<ExactString>(minimumCapacity: 2 * (names.count + 1))
      for i in 0..<names.count { set.insert(ExactString(scannedName(names.slots[i]))) }
      stats.keyChecks += names.count
      names.set = set
    }
    let name: String
    if escaped {
      let after = pos
      pos = key.start - 1
      name = try parseString()
      pos = after
    } else {
      name = scannedName(key)
    }
    stats.keyChecks += 1
    return names.set!.insert(ExactString(name)).inserted
  }

  /// The String of a name without escapes (its bytes are validated UTF-8).
  private func scannedName(_ key: Key) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[key.start..<(key.start + key.count)]), as: UTF8.self)
  }
}

/// The member names of one object being scanned (``JSONParser/noteScannedName(_:escaped:in:)``): the
/// first ``MemberNames/linearLimit`` as where they lie in the frame, in slots on the stack; from an
/// escaped name or the slots' end on, a set of exact Strings.
///
/// ``with(_:)`` is inlinable, so that a caller in another module (the bytes reader's scan of a shape)
/// gets it specialised for its result type: unspecialised, every call looked up the metadata of that
/// type (`Result<JSONValue?, DirectPathError>`) in the runtime's generic metadata cache, about 330
/// instructions an object.
@usableFromInline package struct ScannedNames {
  /// Room for the names compared byte for byte.
  @usableFromInline let slots: UnsafeMutableBufferPointer<JSONParser.Key>
  /// The slots in use.
  var count = 0
  /// Every name so far, once the object no longer fits the slots or has an escaped name.
  var set: Set<ExactString>? = nil

  @usableFromInline init(slots: UnsafeMutableBufferPointer<JSONParser.Key>) {
    self.slots = slots
  }

  /// Runs `body` with the empty names of one object, their slots on the stack.
  @inlinable @inline(__always)
  package static func with<R>(_ body: (inout ScannedNames) -> R) -> R {
    withUnsafeTemporaryAllocation(of: JSONParser.Key.self, capacity: MemberNames.linearLimit) { slots in
      var names = ScannedNames(slots: slots)
      return body(&names)
    }
  }
}
