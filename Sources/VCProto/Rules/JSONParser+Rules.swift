extension JSONParser {
  /// Gives up the direct path (``DirectPathError/miss(at:)``) unless a message's cross-member rule
  /// holds; `set` as for ``FieldRule/violation(set:)``, from the members the generated model decoded.
  @inline(__always)
  func require(_ rule: FieldRule, set: [Bool]) throws(DirectPathError) {
    guard rule.holds(set: set) else { throw Self.miss(pos) }
  }

  /// ``require(_:set:)`` with the flags as bits (``FieldRule/MemberFlags``): what generated code calls,
  /// with its rules in a static table, so that checking a rule allocates nothing.
  @inline(__always)
  func require(_ rule: FieldRule, flags: FieldRule.MemberFlags) throws(DirectPathError) {
    guard rule.holds(flags: flags) else { throw Self.miss(pos) }
  }
}
