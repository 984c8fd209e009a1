import VCProtoJSON

/// How a cross-member ``FieldRule`` is broken, as ``FieldRule/violation(set:)`` finds it: the typed
/// verdict the validator turns into findings (the generated decoder only asks ``FieldRule/holds(flags:)``).
package enum FieldRuleViolation: Sendable, Hashable {
  /// Members that may not be sent together are (`constraint_violation`); `set` lists them in rule order.
  case mutuallyExclusive(set: [String])
  /// None of the members of which exactly one must be sent is (`missing_field` at the first).
  case noneOf([String])
  /// Several of the members of which exactly one may be sent are (`constraint_violation`).
  case severalOf(set: [String])
  /// `member` is sent without the member it requires (`constraint_violation` at `required`).
  case requires(String, required: String)
  /// `member` has the value that makes `missing` required, and they are absent (`missing_field` at each).
  case requiredWhen(String, equals: JSONValue, missing: [String])

  /// The member an error about the violation names: the second of those set together, the required
  /// one absent, or the first of those missing.
  package var member: String {
    switch self {
    case .mutuallyExclusive(let set), .severalOf(let set): return set[1]
    case .noneOf(let names): return names[0]
    case .requires(_, let required): return required
    case .requiredWhen(_, _, let missing): return missing[0]
    }
  }
}

extension FieldRule {
  /// Whether each of ``fieldNames`` is set (present and non-null) in `object`, except that for
  /// ``requiredWhen(_:equals:_:)`` the first entry says whether the condition member has the value.
  package func memberSet(in object: JSONObject) -> [Bool] {
    func isSet(_ name: String) -> Bool {
      if let v = object[name], !v.isNull { return true }
      return false
    }
    var set = fieldNames.map(isSet)
    if case .requiredWhen(let a, let value, _) = self { set[0] = object[a] == value }
    return set
  }

  /// The rule's one statement of what breaks it: `nil` when it holds. `set[i]` says whether the i-th of
  /// ``fieldNames`` is present and non-null (for ``requiredWhen(_:equals:_:)``, `set[0]` whether the
  /// condition member equals the value), as ``memberSet(in:)`` computes it from an object and the
  /// generated model from the members it decoded.
  package func violation(set: [Bool]) -> FieldRuleViolation? {
    violation(flags: set)
  }

  /// ``violation(set:)`` for any random-access collection of flags: an array, or the bits the generated
  /// direct path collects (``MemberFlags``, no allocation).
  @inline(__always)
  package func violation<Flags: RandomAccessCollection<Bool>>(flags set: Flags) -> FieldRuleViolation?
  where Flags.Index == Int {
    var count = 0
    for isSet in set where isSet { count += 1 }
    func chosen() -> [String] { zip(fieldNames, set).filter(\.1).map(\.0) }
    switch self {
    case .mutuallyExclusive:
      return count > 1 ? .mutuallyExclusive(set: chosen()) : nil
    case .exactlyOne(let names):
      if count == 0 { return .noneOf(names) }
      return count > 1 ? .severalOf(set: chosen()) : nil
    case .requires(let a, let b):
      return set[0] && !set[1] ? .requires(a, required: b) : nil
    case .requiredWhen(let a, let value, let required):
      guard set[0], count < set.count else { return nil }
      let missing = zip(required, set.dropFirst()).filter { !$0.1 }.map(\.0)
      return .requiredWhen(a, equals: value, missing: missing)
    }
  }

  /// `true` when the rule holds for `set` (see ``violation(set:)``): the generated direct decode path's
  /// check, with no allocation when it holds.
  @inline(__always)
  package func holds(set: [Bool]) -> Bool {
    violation(set: set) == nil
  }

  /// ``holds(set:)`` on flags kept as bits (the generated direct path: no array per frame).
  @inline(__always)
  package func holds(flags: MemberFlags) -> Bool {
    violation(flags: flags) == nil
  }

  /// The flags of ``violation(set:)`` as bits: flag `i` is bit `i` of `bits`, `count` flags in all (at
  /// most 64). What the generated direct path hands to ``JSONParser/require(_:flags:)``.
  package struct MemberFlags: RandomAccessCollection, Sendable {
    /// The flags, flag `i` in bit `i`.
    package let bits: UInt64
    /// How many flags there are.
    package let count: Int

    package init(count: Int, bits: UInt64) {
      precondition(count >= 0 && count <= 64, "at most 64 member flags")
      self.count = count
      self.bits = bits
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    package subscript(i: Int) -> Bool {
      precondition(i >= 0 && i < count, "member flag index out of range")
      return bits & (1 << UInt64(i)) != 0
    }
  }
}
