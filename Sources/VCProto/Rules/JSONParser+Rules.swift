extension JSONParser {
  /// Gives up the direct path (``DirectPathError/miss(at:)``) unless a message's cross-member rule
  /// holds; `set` as for ``FieldRule/violation(set:)``, from the members the generated model decoded.
  @inline(__always)
  func require(_ rule: FieldRule, set: [Bool]) throws(DirectPathError) {
    guard rule.holds(set: set) else { throw Self.miss(pos) }
  }
}
