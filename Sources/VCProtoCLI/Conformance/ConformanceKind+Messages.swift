import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

extension ConformanceKind {
  /// `messages/`: the peer judges a frame travelling `direction` under `protocol_version`. Its
  /// verdict and error findings, compared as sets of (pointer, code), must be the vector's; the
  /// vector's `warnings` must be among the peer's; a valid frame's `canonical` re-encoding must be
  /// the frame byte for byte, or for a vector marked `canonical: false` its canonical form by the
  /// spec's rule (the vector does not carry it).
  static let messages = ConformanceKind(
    name: "messages",
    input: { vector in
      let frame: JSONValue
      switch vector["frame"] {
      case .string(let text)?: frame = .string(text)
      case let value?: frame = .string(value.jsonText)
      case nil: return .failure(ConformanceProblem("the vector has no \"frame\""))
      }
      guard let version = vector["protocol_version"]?.stringValue else {
        return .failure(ConformanceProblem("the vector has no \"protocol_version\""))
      }
      return .success(
        .object(
          JSONObject([
            .init(key: "frame", value: frame), .init(key: "direction", value: vector["direction"] ?? .null),
            .init(key: "protocol_version", value: .string(version)),
          ])))
    },
    compare: compareMessage)

  static func compareMessage(_ vector: JSONValue, _ result: JSONValue) -> [String] {
    guard let valid = vector["valid"]?.boolValue else { return ["the vector has no boolean \"valid\""] }
    guard let said = result["valid"]?.boolValue else { return ["the result has no boolean \"valid\""] }
    var problems: [String] = []
    if said != valid {
      problems.append("expected \(valid ? "valid" : "invalid"), the peer says \(said ? "valid" : "invalid")")
    }
    guard let got = findings(result["findings"] ?? []) else {
      return problems + ["\"findings\" is not an array of {pointer, code}"]
    }
    let want = findings(vector["findings"] ?? []) ?? []
    let missing = want.subtracting(got).sorted()
    let extra = got.subtracting(want).sorted()
    if !missing.isEmpty { problems.append("missing findings " + missing.joined(separator: ", ")) }
    if !extra.isEmpty { problems.append("unexpected findings " + extra.joined(separator: ", ")) }
    if let listed = findings(vector["warnings"] ?? []), !listed.isEmpty {
      let warned = findings(result["warnings"] ?? []) ?? []
      let absent = listed.subtracting(warned).sorted()
      if !absent.isEmpty { problems.append("missing warnings " + absent.joined(separator: ", ")) }
    }
    guard valid, said else { return problems }
    guard let expected = expectedCanonical(vector) else {
      return problems + ["the vector's frame has no canonical form in the catalog (a bad vector)"]
    }
    guard let canonical = result["canonical"]?.stringValue else {
      return problems + ["a valid frame needs \"canonical\", its re-encoding"]
    }
    if Array(canonical.utf8) != expected {
      problems.append(
        "canonical differs: expected \(show(.string(String(decoding: expected, as: UTF8.self)))), got \(show(.string(canonical)))"
      )
    }
    return problems
  }

  /// `pointer code` for each finding; `nil` when the value is not an array of {pointer, code}.
  static func findings(_ value: JSONValue) -> Set<String>? {
    guard let items = value.arrayValue else { return nil }
    var out = Set<String>()
    for item in items {
      guard let pointer = item["pointer"]?.stringValue, let code = item["code"]?.stringValue else { return nil }
      out.insert("\(code) \(pointer.isEmpty ? "\"\"" : pointer)")
    }
    return out
  }

  /// The bytes a valid frame must re-encode to: the frame itself, unless the vector says it is not
  /// canonical; then its canonical form by the spec's rule (``ConformanceCanonical``).
  static func expectedCanonical(_ vector: JSONValue) -> [UInt8]? {
    let frame: [UInt8]
    switch vector["frame"] {
    case .string(let text)?: frame = Array(text.utf8)
    case let value?: frame = Array(value.jsonText.utf8)
    case nil: return nil
    }
    guard vector["canonical"]?.boolValue == false else { return frame }
    guard let version = vector["protocol_version"]?.stringValue else { return nil }
    return ConformanceCanonical.text(of: frame, version: version)
  }
}
