import VCProto

/// `Vectors/negotiation/`: `{id, server, client, expect}` (format in Vectors/README.md), run with the
/// library's ``Negotiator`` and ``ServerOffer``: the hello's version, then either the negotiated
/// version, capabilities (in order) and auth version, or the refusal frame, member for member.
enum NegotiationVectors {
  /// `nil` when the vector passes, else what differed.
  static func check(_ vector: JSONValue) -> String? {
    guard let server = vector["server"]?.objectValue, let client = vector["client"]?.objectValue,
      let expect = vector["expect"]?.objectValue
    else { return "vector needs objects \"server\", \"client\" and \"expect\"" }
    let offer: ServerOffer
    switch Self.offer(server) {
    case .failure(let problem): return problem.text
    case .success(let made): offer = made
    }
    var problems: [String] = []
    let hello = offer.hello(challenge: nil)
    if hello.version != expect["hello_version"]?.stringValue {
      problems.append("hello.version \(hello.version)")
    }
    let negotiation: Result<NegotiationOutcome, NegotiationFailure>
    do {
      negotiation = try Negotiator.negotiate(server: offer, client: announcement(client))
    } catch {
      return "the announcement is refused: \(error)"
    }
    switch negotiation {
    case .success(let result):
      guard expect["refusal"] == nil else {
        return "expected the refusal, negotiated \(describe(result))"
      }
      let want = (
        version: expect["negotiated_protocol_version"]?.stringValue ?? "",
        capabilities: strings(expect["capabilities"]) ?? [], authVersion: expect["auth_version"]?.intValue ?? 1
      )
      if result.version.rawValue != want.version || result.capabilities != want.capabilities
        || result.authVersion != want.authVersion
      {
        problems.append("negotiated \(describe(result))")
      }
    case .failure(let failure):
      guard let want = expect["refusal"] else {
        return "expected to negotiate, got the refusal (received \(failure.received))"
      }
      // The frame as the library encodes it must be the vector's, member for member.
      let frame = MessageEncoder().encode(ServerMessage.error(failure.errorMessage))
      switch Result(catching: { () throws(JSONReadError) in try JSONReader().parse(frame) }) {
      case .failure(let error): problems.append("the refusal frame does not parse: \(error)")
      case .success(let got):
        if !sameMembers(got.objectValue, want.objectValue) {
          problems.append("refusal frame \(String(decoding: frame, as: UTF8.self))")
        }
      }
    }
    return problems.isEmpty ? nil : "got " + problems.joined(separator: "; ")
  }

  struct Problem: Error { var text: String }

  /// The offer of a vector's `server`: `{legacy: true}` or `{floor, ceiling}`, with `auth_versions` and
  /// `capabilities`.
  static func offer(_ server: JSONObject) -> Result<ServerOffer, Problem> {
    let versions: ServerVersions
    if server["legacy"]?.boolValue == true {
      versions = .legacy
    } else {
      guard let floor = server["floor"]?.stringValue.flatMap(ServerVersions.Floor.init(rawValue:)),
        let ceiling = server["ceiling"]?.stringValue.flatMap(ServerVersions.Ceiling.init(rawValue:))
      else { return .failure(Problem(text: "server needs \"legacy\": true, or a floor and a ceiling it knows")) }
      versions = .negotiating(floor: floor, ceiling: ceiling)
    }
    return .success(
      ServerOffer(
        versions: versions, authVersions: server["auth_versions"]?.arrayValue?.compactMap(\.intValue) ?? [1],
        capabilities: strings(server["capabilities"]) ?? []))
  }

  /// The announcement of a vector's `client`; a `protocol_version` of JSON null is absent.
  static func announcement(_ client: JSONObject) -> ClientAnnouncement {
    ClientAnnouncement(
      protocolVersion: client["protocol_version"]?.stringValue, capabilities: strings(client["capabilities"]),
      authVersion: client["auth_version"]?.intValue)
  }

  /// The same members with equal values, in any order.
  private static func sameMembers(_ a: JSONObject?, _ b: JSONObject?) -> Bool {
    guard let a, let b, a.count == b.count else { return false }
    return a.members.allSatisfy { b[$0.key] == $0.value }
  }

  private static func strings(_ value: JSONValue?) -> [String]? {
    value?.arrayValue?.compactMap(\.stringValue)
  }

  private static func describe(_ outcome: NegotiationOutcome) -> String {
    "\(outcome.version) with [\(outcome.capabilities.joined(separator: ", "))], auth v\(outcome.authVersion)"
  }
}
