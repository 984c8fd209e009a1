extension JSONValue {
  /// `true` when both values are the same JSON value with every string (and member name) the same
  /// sequence of Unicode scalars; numbers, booleans and null compare as with `==`. Unlike `==`, whose
  /// strings compare by canonical equivalence, `"e\u{301}"` is not exactly `"\u{E9}"`. Members of
  /// objects compare in order.
  package func isExactly(_ other: JSONValue) -> Bool {
    switch (self, other) {
    case (.string(let a), .string(let b)):
      return a.hasSameScalars(as: b)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isExactly($1) }
    case (.object(let a), .object(let b)):
      return a.members.count == b.members.count
        && zip(a.members, b.members).allSatisfy { $0.key.hasSameScalars(as: $1.key) && $0.value.isExactly($1.value) }
    case (.string, _), (.array, _), (.object, _):
      return false
    default:
      return self == other
    }
  }
}
