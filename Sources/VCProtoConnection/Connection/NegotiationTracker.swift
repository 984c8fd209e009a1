import VCProtoCore
import VCProtoJSON

/// Follows which protocol version one connection of an observed conversation speaks, read from its handshake
/// the way the real backend decides it (``Negotiator/decideVersion(_:announced:)``, STANDARDS.md#negotiation),
/// and the handshake's own faults. Part of ``ConversationObserver``.
///
/// - Before any `hello`, and on a connection whose `hello` was not seen: the fallback (the caller's
///   choice, `vcproto validate --protocol`); such a conversation has no handshake.
/// - `hello` starts a new connection. Its `version` is the server's ceiling: `"0.2.0"` and `"0.3.0"`
///   are servers that negotiate nothing (every frame is that version); `"0.4.0"` and `"0.5.0"` are
///   negotiating servers, whose frames are checked against the assumed floor (the fallback when the
///   caller chose it and it is 0.3.0, 0.4.0 or 0.5.0, else the default floor 0.4.0) until the
///   handshake says more.
/// - `connect` on a negotiating server: its `protocol_version` gives the version the algorithm
///   predicts for the assumed floor (used when the capture has no `connected`). A client the server
///   will refuse as too old is checked against its own version (e.g. 0.3.0) until the refusal, which
///   is the server's frame and checked against the floor.
/// - `connected.negotiated_protocol_version` decides. It is `negotiation_mismatch` when no floor
///   could give it for this ceiling and announcement.
/// - `error{code:"unsupported_protocol_version"}` is the server's refusal. It is
///   `negotiation_mismatch` when the announcement was not a parseable version below 0.4.0, or when
///   `required` is not `"0.4.0"` or `received` not the announced string.
package struct NegotiationTracker: Sendable {
  /// The version frames are checked against when the capture has no handshake.
  package let fallback: ProtocolVersion
  /// Whether `--protocol` was given (it is then the assumed floor of a negotiating server).
  package let explicit: Bool
  /// The version the current frame is checked against.
  package private(set) var version: ProtocolVersion
  /// The ceiling the connection's `hello` advertised, for a negotiating server.
  package private(set) var ceiling: ServerVersions.Ceiling?
  /// Whether this connection's `hello` is in the capture: without it there is no handshake, and
  /// the fallback stays.
  private var helloSeen = false
  /// The version of a server whose `hello` says it negotiates nothing (0.2.0, 0.3.0).
  private var fixedVersion: ProtocolVersion?
  /// The `connect` seen on this connection: `.some(nil)` when it announced no version.
  private var announced: String??
  private var unknownReported: String?

  /// A tracker whose version before any handshake is `fallback`.
  package init(fallback: ProtocolVersion, explicit: Bool) {
    self.fallback = fallback
    self.explicit = explicit
    self.version = fallback
  }

  /// Whether ``version`` comes from the connection's handshake: a `hello` advertising a version the
  /// catalog knows was seen (a server that negotiates nothing, or a negotiating one).
  package var fromHandshake: Bool { fixedVersion != nil || ceiling != nil }

  /// Forgets the connection (a new capture connection begins).
  package mutating func reset() {
    self = NegotiationTracker(fallback: fallback, explicit: explicit)
  }

  /// Takes the next frame; returns the findings the handshake causes.
  package mutating func receive(_ direction: MessageDirection, _ message: JSONObject) -> [Finding] {
    let type = message["type"]?.stringValue ?? ""
    switch (direction, type) {
    case (.serverToClient, "hello"):
      reset()
      return hello(message["version"]?.stringValue)
    case (.clientToServer, "connect"):
      let text = message["protocol_version"]?.stringValue
      announced = .some(text)
      guard let ceiling else { return [] }
      switch decide(floor: assumedFloor, ceiling: ceiling, text) {
      case .success(let predicted):
        version = predicted
      case .failure:
        // A client the server will refuse speaks its own, older version until then.
        if let own = text.flatMap(VersionNumber.init(announced:)).flatMap(ProtocolVersion.init) { version = own }
      }
      return []
    case (.serverToClient, "connected"):
      return connected(message)
    case (.serverToClient, "error") where message["code"]?.stringValue == NegotiationFailure.code:
      return refusal(message)
    default:
      return []
    }
  }

  private var assumedFloor: ServerVersions.Floor {
    explicit ? ServerVersions.Floor(rawValue: fallback.rawValue) ?? .v0_4_0 : .v0_4_0
  }

  private mutating func hello(_ advertised: String?) -> [Finding] {
    helloSeen = true
    switch advertised {
    case "0.2.0", "0.3.0":
      let fixed = ProtocolVersion(rawValue: advertised!)!
      version = fixed
      fixedVersion = fixed
      return []
    case "0.4.0", "0.5.0":
      ceiling = ServerVersions.Ceiling(rawValue: advertised!)!
      version = assumedFloor.version
      return []
    default:
      version = fallback
      return unknown(advertised, pointer: "/version", what: "hello advertises")
    }
  }

  private mutating func connected(_ message: JSONObject) -> [Finding] {
    guard helloSeen, let text = message["negotiated_protocol_version"]?.stringValue else { return [] }
    guard let negotiated = ProtocolVersion(rawValue: text) else {
      return unknown(text, pointer: "/negotiated_protocol_version", what: "connected negotiates")
    }
    defer { version = negotiated }
    let possible: [ProtocolVersion]
    if let ceiling {
      guard let announced else { return [] }  // no connect in the capture: nothing to compare with
      // Every version some floor gives (a floor that refuses the client gives none).
      var versions: Set<ProtocolVersion> = []
      for floor in ServerVersions.Floor.allCases {
        if case .success(let version) = decide(floor: floor, ceiling: ceiling, announced) { versions.insert(version) }
      }
      possible = versions.sorted()
    } else if let fixedVersion {
      possible = [fixedVersion]  // a server that negotiates nothing
    } else {
      return []  // a hello of a version vcproto does not know: nothing to compare with
    }
    guard !possible.contains(negotiated) else { return [] }
    let what =
      possible.isEmpty ? "refuse the client" : "negotiate " + possible.map(\.rawValue).joined(separator: " or ")
    return [
      mismatch(
        "/negotiated_protocol_version", "connected",
        "negotiated \(negotiated), but \(context) the server can only \(what)")
    ]
  }

  private mutating func refusal(_ message: JSONObject) -> [Finding] {
    guard ceiling != nil else { return [] }  // not a negotiating server: nothing to compare with
    version = assumedFloor.version  // the refusal is the server's frame
    guard let announced else {
      return [mismatch("/code", "error", "the server refused the client before its connect")]
    }
    var findings: [Finding] = []
    let parsed = announced.flatMap(VersionNumber.init(announced:))
    if parsed.map({ $0 >= .oldestAccepted }) ?? true {
      findings.append(
        mismatch(
          "/code", "error",
          "refused as too old, but \(context) only a parseable version below 0.4.0 is refused"))
    }
    if let required = message["required"]?.stringValue, required != ProtocolVersion.v0_4_0.rawValue {
      findings.append(
        mismatch(
          "/required", "error", "required is \(ConversationObserver.shown(required)); the server always names 0.4.0"))
    }
    if let announced, let received = message["received"]?.stringValue, received != announced {
      findings.append(
        mismatch("/received", "error", "received is not the protocol_version the client's connect announced"))
    }
    return findings
  }

  private var context: String {
    let client = announced.map { $0.map { "protocol_version \(ConversationObserver.shown($0))" } ?? "no version" }
    return "with ceiling \(ceiling?.rawValue ?? version.rawValue) and a client announcing \(client ?? "nothing yet"),"
  }

  private func decide(floor: ServerVersions.Floor, ceiling: ServerVersions.Ceiling, _ text: String?) -> Result<
    ProtocolVersion, NegotiationFailure
  > {
    Negotiator.decideVersion(.negotiating(floor: floor, ceiling: ceiling), announced: text)
  }

  private func mismatch(_ pointer: String, _ type: String, _ text: String) -> Finding {
    Finding(.error, .negotiationMismatch, pointer: pointer, messageType: type, message: text)
  }

  private mutating func unknown(_ value: String?, pointer: String, what: String) -> [Finding] {
    let shown = value.map(ConversationObserver.shown) ?? "no version"
    guard unknownReported != shown else { return [] }
    unknownReported = shown
    return [
      Finding(
        .warning, .unknownProtocolVersion, pointer: value == nil ? "" : pointer,
        message: "the \(what) protocol \(shown), which vcproto does not know; checking against \(fallback)")
    ]
  }
}
