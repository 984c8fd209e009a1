/// A JSON object whose members keep their order (vcproto's decode -> encode round trip preserves it).
///
/// Lookups are linear: protocol objects have few members, and a linear scan over a small array beats
/// hashing. Keys are unique: ``JSONReader`` rejects duplicate keys. Keys are matched by their exact
/// sequence of Unicode scalars, like duplicates (STANDARDS.md#exact-identifiers), never by canonical
/// equivalence: `"e\u{301}"` does not find a member named `"é"` (U+00E9).
public struct JSONObject: Sendable, Hashable {
  /// One member: a key and its value.
  public struct Member: Sendable, Hashable {
    /// The member name.
    public var key: String
    /// The member value.
    public var value: JSONValue

    /// Creates a member.
    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// The members in wire order.
  public var members: [Member]

  /// Creates an object from members (the caller keeps keys unique).
  public init(_ members: [Member] = []) {
    self.members = members
  }

  /// The number of members.
  public var count: Int { members.count }

  /// `true` when the object has no members.
  public var isEmpty: Bool { members.isEmpty }

  /// The member keys in order.
  public var keys: [String] { members.map(\.key) }

  /// The value for `key`, or `nil` when absent. Setting `nil` removes the member; setting a new key appends it.
  public subscript(key: String) -> JSONValue? {
    get {
      // Comparing lengths first (stored, not computed, for native strings) skips most full comparisons.
      // Members are read in place (a `for m in members` loop copies each one: two reference counts).
      for i in members.indices where members[i].key.hasSameScalars(as: key) { return members[i].value }
      return nil
    }
    set {
      if let i = members.firstIndex(where: { $0.key.hasSameScalars(as: key) }) {
        if let newValue { members[i].value = newValue } else { members.remove(at: i) }
      } else if let newValue {
        members.append(Member(key: key, value: newValue))
      }
    }
  }

  /// `true` when a member named `key` exists (even if its value is `null`).
  public func contains(_ key: String) -> Bool {
    members.contains { $0.key.hasSameScalars(as: key) }
  }

  /// The members whose keys are not in `known`, in order (used to keep unknown fields for round trips).
  public func members(excluding known: Set<String>) -> JSONObject {
    JSONObject(
      members.filter { m in
        guard let i = known.firstIndex(of: m.key) else { return true }
        return !known[i].hasSameScalars(as: m.key)
      })
  }
}
