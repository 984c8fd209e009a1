import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// One kind of golden vector as `vcproto conformance` runs it: the files under Vectors/ it reads,
/// what of a vector goes to the peer (`input`), and how the peer's `result` is judged against the
/// vector's expectations (`compare`). Adding a kind is adding one of these (Vectors/CONFORMANCE.md).
struct ConformanceKind: Sendable {
  /// The `kind` of requests (`messages`, `auth`, ...).
  var name: String
  /// The folder under the vectors directory whose files (at any depth) hold these vectors.
  var folder: String
  /// When set, only files of this name (without `.json`) in the folder; a kind without one takes
  /// the folder's other files. Lets one folder hold vectors of different shapes.
  var file: String?
  /// The request's `input` for a vector, or why the vector cannot be run.
  var input: @Sendable (JSONValue) -> Result<JSONValue, ConformanceProblem>
  /// What differs between the peer's `result` and the vector's expectations (empty: it passes).
  var compare: @Sendable (_ vector: JSONValue, _ result: JSONValue) -> [String]

  init(
    name: String, folder: String? = nil, file: String? = nil,
    input: @escaping @Sendable (JSONValue) -> Result<JSONValue, ConformanceProblem>,
    compare: @escaping @Sendable (_ vector: JSONValue, _ result: JSONValue) -> [String]
  ) {
    self.name = name
    self.folder = folder ?? name
    self.file = file
    self.input = input
    self.compare = compare
  }

  /// The kind of the vectors in a file (`components`: its path under the vectors directory).
  static func of(_ components: [String], among kinds: [ConformanceKind]) -> ConformanceKind? {
    guard components.count > 1, let stem = components.last.map({ String($0.dropLast(".json".count)) }) else {
      return nil
    }
    let candidates = kinds.filter { $0.folder == components[0] }
    return candidates.first { $0.file == stem } ?? candidates.first { $0.file == nil }
  }

  /// Every kind the runner knows, in the order they run.
  static let all: [ConformanceKind] = [
    .messages, .envelope, .auth, .authHKDF, .authFrames, .negotiation, .sessions,
  ]
}

/// A vector the runner cannot turn into a request.
struct ConformanceProblem: Error, Sendable {
  var text: String
  init(_ text: String) { self.text = text }
}

extension ConformanceKind {
  /// An input made of the vector's own members, leaving out `excluded` (its expectations).
  static func members(of vector: JSONValue, excluding excluded: Set<String>) -> Result<JSONValue, ConformanceProblem> {
    guard let object = vector.objectValue else { return .failure(ConformanceProblem("the vector is not an object")) }
    return .success(.object(JSONObject(object.members.filter { !excluded.contains($0.key) })))
  }

  /// An input of the listed members of the vector (each required).
  static func members(of vector: JSONValue, _ names: [String]) -> Result<JSONValue, ConformanceProblem> {
    var out = JSONObject()
    for name in names {
      guard let value = vector[name] else { return .failure(ConformanceProblem("the vector has no \"\(name)\"")) }
      out.members.append(.init(key: name, value: value))
    }
    return .success(.object(out))
  }

  /// JSON equality as data: objects compare by member regardless of order, numbers by value,
  /// arrays in order.
  static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.object(let x), .object(let y)):
      guard x.count == y.count else { return false }
      return x.members.allSatisfy { m in y[m.key].map { same(m.value, $0) } ?? false }
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    case (.number(let x), .number(let y)):
      return x.literal == y.literal || (x.doubleValue != nil && x.doubleValue == y.doubleValue)
    default:
      return a == b
    }
  }

  /// A value as compact JSON text, shortened for a failure line.
  static func show(_ value: JSONValue?) -> String {
    guard let value else { return "nothing" }
    let text = value.jsonText
    return Redaction.cut(text, limit: 200)
  }
}
