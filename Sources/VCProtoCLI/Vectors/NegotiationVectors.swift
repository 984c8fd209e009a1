import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `Vectors/negotiation/` as ``SwiftPeer`` answers them: the library's ``ServerOffer`` (from
/// `server`) says its hello's version, and ``Negotiator`` decides over `client`'s announcement; the
/// result is `{hello_version, negotiated_protocol_version, capabilities, auth_version}`, or
/// `{hello_version, refusal}` with the refusal frame as ``MessageEncoder`` writes it.
enum NegotiationVectors {
  /// The result for `{server, client}`, or why there is none.
  static func answer(_ input: JSONValue) -> Result<JSONValue, SwiftPeer.Refusal> {
    guard let server = input["server"]?.objectValue, let client = input["client"]?.objectValue else {
      return .failure(.init("the input needs objects \"server\" and \"client\""))
    }
    let offer: ServerOffer
    switch Self.offer(server) {
    case .failure(let problem): return .failure(.init(problem.text))
    case .success(let made): offer = made
    }
    var result = JSONObject([.init(key: "hello_version", value: .string(offer.hello(challenge: nil).version))])
    let negotiation: Result<NegotiationOutcome, NegotiationFailure>
    do {
      negotiation = try Negotiator.negotiate(server: offer, client: announcement(client))
    } catch {
      return .failure(.init("the announcement is refused: \(error)"))
    }
    switch negotiation {
    case .success(let outcome):
      result["negotiated_protocol_version"] = .string(outcome.version.rawValue)
      result["capabilities"] = .array(outcome.capabilities.map { .string($0) })
      result["auth_version"] = .number(JSONNumber(outcome.authVersion))
    case .failure(let failure):
      let frame = MessageEncoder().encode(ServerMessage.error(failure.errorMessage))
      do throws(JSONReadError) {
        result["refusal"] = try JSONReader().parse(frame)
      } catch {
        return .failure(.init("the refusal frame does not parse: \(error)"))
      }
    }
    return .success(.object(result))
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

  private static func strings(_ value: JSONValue?) -> [String]? {
    value?.arrayValue?.compactMap(\.stringValue)
  }

}
