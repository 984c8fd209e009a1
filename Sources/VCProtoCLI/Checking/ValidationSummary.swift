import VCProto

/// Counts over a whole `validate` run: frames, valid and invalid frames, errors and warnings, per
/// type and per code.
struct ValidationSummary: Sendable, Equatable {
  /// Counts for one message type.
  struct TypeCounts: Sendable, Equatable {
    var frames = 0
    var invalid = 0
    var errors = 0
    var warnings = 0
  }

  var frames = 0
  var valid = 0
  var invalid = 0
  var errors = 0
  var warnings = 0
  /// By message type (frames without a type are counted under ``untyped``).
  var types: [String: TypeCounts] = [:]
  /// Findings by code.
  var codes: [String: Int] = [:]
  /// Sources that could not be opened or read to the end (missing file, directory, I/O error), by
  /// name. Any makes the run's verdict `ERROR` and its exit status 2.
  var unreadable: [String] = []

  /// The key frames without a `type` are counted under.
  static let untyped = "(no type)"

  /// Adds one outcome (a frame, or a capture-level item that is not a frame).
  mutating func add(_ outcome: FrameOutcome) {
    let errorCount = outcome.findings.filter { $0.severity == .error }.count
    let warningCount = outcome.findings.count - errorCount
    errors += errorCount
    warnings += warningCount
    for f in outcome.findings { codes[f.code.rawValue, default: 0] += 1 }
    guard outcome.isFrame else { return }
    frames += 1
    if errorCount == 0 { valid += 1 } else { invalid += 1 }
    let key = outcome.messageType ?? Self.untyped
    var counts = types[key, default: TypeCounts()]
    counts.frames += 1
    counts.invalid += errorCount == 0 ? 0 : 1
    counts.errors += errorCount
    counts.warnings += warningCount
    types[key] = counts
  }

  /// `ERROR` when a source was unreadable, else `FAIL` when there is an error, else `OK` (the exit
  /// status is 2, 1 and 0 respectively).
  var verdict: String {
    if !unreadable.isEmpty { return "ERROR" }
    return errors > 0 ? "FAIL" : "OK"
  }

  /// The summary as a JSON object (keys sorted within `types` and `codes`).
  var json: JSONValue {
    var typeMembers: [JSONObject.Member] = []
    for key in types.keys.sorted() {
      let c = types[key]!
      typeMembers.append(
        JSONObject.Member(
          key: key,
          value: [
            "frames": .number(JSONNumber(c.frames)), "invalid": .number(JSONNumber(c.invalid)),
            "errors": .number(JSONNumber(c.errors)), "warnings": .number(JSONNumber(c.warnings)),
          ]))
    }
    let codeMembers = codes.keys.sorted().map { JSONObject.Member(key: $0, value: .number(JSONNumber(codes[$0]!))) }
    return [
      "frames": .number(JSONNumber(frames)), "valid": .number(JSONNumber(valid)),
      "invalid": .number(JSONNumber(invalid)), "errors": .number(JSONNumber(errors)),
      "warnings": .number(JSONNumber(warnings)), "unreadable": .number(JSONNumber(unreadable.count)),
      "unreadable_sources": .array(unreadable.map { .string($0) }), "types": .object(JSONObject(typeMembers)),
      "codes": .object(JSONObject(codeMembers)),
    ]
  }
}
