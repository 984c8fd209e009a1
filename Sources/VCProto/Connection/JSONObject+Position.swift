extension JSONObject {
  /// This message's dedup position in `family`'s terms (``Subscription/delivered``): ``PositionHash``
  /// of its `uuid` string (0.2.0/0.3.0), or its `seq` (0.4.0) or `offset` (0.5.0) integer; `nil` when
  /// the member is absent or of another kind. The same as reading the member with the subscript, but
  /// in place: the subscript returns a copy of the value (a reference count written and released on
  /// memory the engine otherwise only reads), once per message of every `session_history`.
  @inline(__always)
  func position(in family: VersionFamily) -> Int? {
    switch family {
    case .messageId:
      for i in members.indices where members[i].key.hasSameScalars(as: "uuid") {
        if case .string(let uuid) = members[i].value { return PositionHash.of(uuid) }
        return nil
      }
    case .seq:
      for i in members.indices where members[i].key.hasSameScalars(as: "seq") {
        if case .number(let n) = members[i].value, let v = n.int64Value { return Int(exactly: v) }
        return nil
      }
    case .offset:
      for i in members.indices where members[i].key.hasSameScalars(as: "offset") {
        if case .number(let n) = members[i].value, let v = n.int64Value { return Int(exactly: v) }
        return nil
      }
    }
    return nil
  }
}
