import VCProto

/// `Vectors/negotiation/`: `{id, server, client, outcome}`, run with the library's ``Negotiator``: the
/// outcome's version, capabilities (in order) and auth version, or the error's code, message, required,
/// received, supported and requested, must be the vector's.
enum NegotiationVectors {
  /// `nil` when the vector passes, else what differed.
  static func check(_ vector: JSONValue) -> String? {
    guard let server = vector["server"]?.objectValue, let client = vector["client"]?.objectValue,
      let outcome = vector["outcome"]?.objectValue
    else { return "vector needs objects \"server\", \"client\" and \"outcome\"" }
    let offer = AuthVectors.offer(vector["server"])
    let announcement = ClientAnnouncement(
      protocolVersion: client["protocol_version"]?.stringValue,
      protocolVersions: strings(client["protocol_versions"]), capabilities: strings(client["capabilities"]),
      authVersion: client["auth_version"]?.intValue)
    switch Negotiator.negotiate(server: offer, client: announcement) {
    case .success(let result):
      if let error = outcome["error"] {
        return "expected \(error["code"]?.stringValue ?? "an error"), negotiated \(describe(result))"
      }
      // Compared as listed: the vectors give the capabilities sorted, as the outcome must carry them.
      let want = (
        version: outcome["negotiated_protocol_version"]?.stringValue ?? "",
        capabilities: strings(outcome["capabilities"]) ?? [], authVersion: outcome["auth_version"]?.intValue
      )
      if result.version == want.version, result.capabilities == want.capabilities,
        want.authVersion.map({ $0 == result.authVersion }) ?? true
      {
        return nil
      }
      return "expected \(want.version) with \(list(want.capabilities))"
        + (want.authVersion.map { ", auth v\($0)" } ?? "") + ", negotiated \(describe(result))"
    case .failure(let failure):
      guard let error = outcome["error"] else {
        return "expected to negotiate, got \(NegotiationFailure.code) (required \(failure.required))"
      }
      var got: [String] = []
      if error["code"]?.stringValue != NegotiationFailure.code { got.append("code \(NegotiationFailure.code)") }
      if let message = error["message"]?.stringValue, message != failure.message {
        got.append("message \"\(failure.message)\"")
      }
      if error["required"]?.stringValue != failure.required { got.append("required \(failure.required)") }
      if error["received"]?.stringValue != failure.received { got.append("received \(failure.received)") }
      if strings(error["supported"]) != failure.supported { got.append("supported \(list(failure.supported))") }
      if strings(error["requested"]) != failure.requested { got.append("requested \(list(failure.requested))") }
      return got.isEmpty ? nil : "the error differs: got " + got.joined(separator: ", ")
    }
  }

  private static func strings(_ value: JSONValue?) -> [String]? {
    value?.arrayValue?.compactMap(\.stringValue)
  }

  private static func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }

  private static func describe(_ outcome: NegotiationOutcome) -> String {
    "\(outcome.version) with \(list(outcome.capabilities)), auth v\(outcome.authVersion)"
  }
}
