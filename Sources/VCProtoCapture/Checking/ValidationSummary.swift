import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Counts over a whole `validate` run: frames, valid and invalid frames, errors and warnings, per
/// type and per code.
///
/// Memory is bounded whatever the capture holds: every type any catalog defines (and frames without
/// a type) gets its own row, but at most ``maxListedOtherTypes`` other types, each at most
/// ``maxListedTypeBytes`` bytes long, in the order first seen; frames of any further type are
/// counted together under ``otherTypes``, whose distinct types are counted exactly up to
/// ``maxCountedOtherTypes`` (as 64-bit hashes, not names).
package struct ValidationSummary: Sendable, Equatable {
  /// Counts for one message type.
  struct TypeCounts: Sendable, Equatable {
    var frames = 0
    var invalid = 0
    var errors = 0
    var warnings = 0
  }

  /// Frames whose type has no row of its own.
  struct OtherTypes: Sendable, Equatable {
    /// Their counts, together.
    var counts = TypeCounts()
    /// Hashes of the distinct types seen (at most ``ValidationSummary/maxCountedOtherTypes``).
    var distinct: Set<Int> = []
    /// More distinct types than ``ValidationSummary/maxCountedOtherTypes`` were seen.
    var distinctOverflow = false

    /// `12`, or `65536+` once the count is no longer exact.
    var distinctText: String { "\(distinct.count)\(distinctOverflow ? "+" : "")" }
  }

  /// Most types outside the catalogs that get a row of their own.
  static let maxListedOtherTypes = 64
  /// Longest type (in UTF-8 bytes) outside the catalogs that gets a row of its own.
  static let maxListedTypeBytes = 64
  /// Most distinct types counted exactly in ``otherTypes``.
  static let maxCountedOtherTypes = 65_536

  /// Every type some catalog defines: these always get a row (their number is fixed and small).
  static let catalogTypes: Set<String> = Set(ProtocolCatalog.all.flatMap { $0.messages.map(\.type) })

  var frames = 0
  var valid = 0
  var invalid = 0
  var errors = 0
  var warnings = 0
  /// By message type (frames without a type are counted under ``untyped``); bounded as the type's
  /// documentation says.
  var types: [String: TypeCounts] = [:]
  /// Frames of types that have no row in ``types``.
  var otherTypes = OtherTypes()
  /// Findings by code.
  var codes: [String: Int] = [:]
  /// The versions the conversations that ended were checked against and why: each conversation's
  /// last (once its handshake settled), at most one entry per version and origin.
  var endedVersions: Set<VersionUse> = []
  /// The version the last frame of each conversation still going on was checked against, by capture
  /// connection (at most ``maxOpenConversations``; past that, they are counted as ended).
  var openVersions: [Int: VersionUse] = [:]

  /// Most conversations whose version is followed at once (the conversations ``CaptureValidation``
  /// follows at once).
  static let maxOpenConversations = CaptureValidation.maxOpenConnections

  /// The versions the run's conversations were checked against and why.
  var versions: Set<VersionUse> { endedVersions.union(openVersions.values) }
  /// Sources that could not be opened or read to the end (missing file, directory, I/O error), by
  /// name. Any makes the run's verdict `ERROR` and its exit status 2.
  var unreadable: [String] = []
  /// How many findings were printed and how many were only counted (`--max-findings`).
  var printed = FindingCap()

  private var listedOtherTypes = 0

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
    if let use = outcome.versionUse {
      if outcome.startsConversation, let ended = openVersions[outcome.connection] { endedVersions.insert(ended) }
      if openVersions[outcome.connection] == nil, openVersions.count >= Self.maxOpenConversations {
        endedVersions.formUnion(openVersions.values)
        openVersions.removeAll()
      }
      openVersions[outcome.connection] = use
    }
    if errorCount == 0 { valid += 1 } else { invalid += 1 }
    func count(_ counts: inout TypeCounts) {
      counts.frames += 1
      counts.invalid += errorCount == 0 ? 0 : 1
      counts.errors += errorCount
      counts.warnings += warningCount
    }
    let key = outcome.messageType ?? Self.untyped
    if types[key] != nil {
      count(&types[key]!)
    } else if key == Self.untyped || Self.catalogTypes.contains(key)
      || (listedOtherTypes < Self.maxListedOtherTypes && key.utf8.count <= Self.maxListedTypeBytes)
    {
      if key != Self.untyped, !Self.catalogTypes.contains(key) { listedOtherTypes += 1 }
      count(&types[key, default: TypeCounts()])
    } else {
      count(&otherTypes.counts)
      if otherTypes.distinct.count < Self.maxCountedOtherTypes {
        otherTypes.distinct.insert(key.hashValue)
      } else if !otherTypes.distinct.contains(key.hashValue) {
        otherTypes.distinctOverflow = true
      }
    }
  }

  /// `ERROR` when a source was unreadable, else `FAIL` when there is an error, else `OK` (the exit
  /// status is 2, 1 and 0 respectively).
  var verdict: String {
    if !unreadable.isEmpty { return "ERROR" }
    return errors > 0 ? "FAIL" : "OK"
  }

  /// The summary as a JSON object (keys sorted within `types` and `codes`). `other_types` is there
  /// only when some frames had a type without a row: `{"types": N, "types_exact": bool, "frames": …}`.
  /// `max_findings` is the `--max-findings` cap (`null` when unlimited) and `findings_not_shown` the
  /// findings counted but not printed because of it.
  var json: JSONValue {
    func counts(_ c: TypeCounts) -> JSONValue {
      [
        "frames": .number(JSONNumber(c.frames)), "invalid": .number(JSONNumber(c.invalid)),
        "errors": .number(JSONNumber(c.errors)), "warnings": .number(JSONNumber(c.warnings)),
      ]
    }
    let typeMembers = types.keys.sorted().map { JSONObject.Member(key: $0, value: counts(types[$0]!)) }
    let codeMembers = codes.keys.sorted().map { JSONObject.Member(key: $0, value: .number(JSONNumber(codes[$0]!))) }
    let versionItems: [JSONValue] = versions.sorted { ($0.origin, $0.version) < ($1.origin, $1.version) }.map {
      ["version": .string($0.version.rawValue), "origin": .string($0.origin.rawValue)]
    }
    var object = JSONObject([
      JSONObject.Member(key: "frames", value: .number(JSONNumber(frames))),
      JSONObject.Member(key: "valid", value: .number(JSONNumber(valid))),
      JSONObject.Member(key: "invalid", value: .number(JSONNumber(invalid))),
      JSONObject.Member(key: "errors", value: .number(JSONNumber(errors))),
      JSONObject.Member(key: "warnings", value: .number(JSONNumber(warnings))),
      JSONObject.Member(key: "unreadable", value: .number(JSONNumber(unreadable.count))),
      JSONObject.Member(key: "unreadable_sources", value: .array(unreadable.map { .string($0) })),
      JSONObject.Member(key: "max_findings", value: printed.limit.map { .number(JSONNumber($0)) } ?? .null),
      JSONObject.Member(key: "findings_not_shown", value: .number(JSONNumber(printed.notShown))),
      JSONObject.Member(key: "protocols", value: .array(versionItems)),
      JSONObject.Member(key: "types", value: .object(JSONObject(typeMembers))),
    ])
    if otherTypes.counts.frames > 0 {
      var other = counts(otherTypes.counts).objectValue ?? JSONObject()
      other.members.insert(
        JSONObject.Member(key: "types_exact", value: .bool(!otherTypes.distinctOverflow)), at: 0)
      other.members.insert(
        JSONObject.Member(key: "types", value: .number(JSONNumber(otherTypes.distinct.count))), at: 0)
      object.members.append(JSONObject.Member(key: "other_types", value: .object(other)))
    }
    object.members.append(JSONObject.Member(key: "codes", value: .object(JSONObject(codeMembers))))
    return .object(object)
  }
}
