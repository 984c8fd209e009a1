import VCProtoJSON

/// A rule across several members of one message (`constraint_violation` when broken).
public enum FieldRule: Sendable, Hashable {
  /// At most one of these members may be present with a non-null value.
  case mutuallyExclusive([String])
  /// Exactly one of these members must be present with a non-null value. When none is, the finding
  /// is `missing_field` at the first member (it is the one today's peers send).
  case exactlyOne([String])
  /// When the first member is present and non-null, the second must be too.
  case requires(String, String)
  /// When the first member equals the value, each of the listed members must be present and non-null
  /// (`missing_field` at the first one absent): `error` with code `unsupported_protocol_version` carries
  /// `required` and `received`.
  case requiredWhen(String, equals: JSONValue, [String])

  /// The members the rule mentions.
  public var fieldNames: [String] {
    switch self {
    case .mutuallyExclusive(let names), .exactlyOne(let names): return names
    case .requires(let a, let b): return [a, b]
    case .requiredWhen(let a, _, let names): return [a] + names
    }
  }

  /// A one-line statement of the rule for docs and findings.
  public var summary: String {
    switch self {
    case .mutuallyExclusive(let names):
      return "at most one of " + names.map { "`\($0)`" }.joined(separator: ", ") + " may be set"
    case .exactlyOne(let names):
      return "exactly one of " + names.map { "`\($0)`" }.joined(separator: ", ") + " must be set"
    case .requires(let a, let b): return "`\(a)` requires `\(b)`"
    case .requiredWhen(let a, let value, let names):
      return names.map { "`\($0)`" }.joined(separator: " and ") + " must be set when `\(a)` is \(value.jsonText)"
    }
  }
}
