import VCProtoCore
import VCProtoJSON

/// Version and capability negotiation as a pure function (STANDARDS.md#negotiation), exactly as the
/// real backend's newest commit decides the version.
public enum Negotiator {
  /// The server's decision for a client's announcement.
  ///
  /// The version, for a negotiating server (``ServerVersions/negotiating(floor:ceiling:)``):
  /// 1. `protocol_version` is parsed as the real backend parses it: everything from the first `-` or
  ///    `+` is dropped (`0.5.0-rc1` is `0.5.0`), and what is left must be exactly three decimal
  ///    integers separated by dots, compared numerically (`0.10.0` > `0.9.0`; an unknown newer
  ///    `0.6.0` is above 0.5.0); absent (or JSON null) and unparseable are told apart only in step 2.
  /// 2. Too-old guard (floor 0.4.0 or 0.5.0 only): a parseable version below 0.4.0 fails with the
  ///    refusal frame (``NegotiationFailure``), `required` `"0.4.0"`, `received` as sent. The caller
  ///    sends it and closes **before** checking any credential.
  /// 3. Absent or unparseable: the floor.
  /// 4. Otherwise `min(client, ceiling)`; 0.3.0, 0.4.0 and 0.5.0 are that version, any other triple
  ///    (`0.4.1`, or `0.2.0` under floor 0.3.0) the floor.
  ///
  /// A 0.2.0 server (``ServerVersions/legacy``) gives 0.2.0 to every client and refuses none.
  /// Capabilities are the intersection of both sets on every version (a client that asks for none,
  /// as every real client, gets none), without `authenticated_frames` unless the client uses auth v2
  /// (its keys come from the v2 handshake); the auth version is the one the client's `connect` uses.
  ///
  /// Before any of that, each list of the announcement (`protocol_versions`, `capabilities`) is held
  /// to `maxListItems` entries, the handshake-list cap the validator applies to parsed frames
  /// (``ValidationOptions/maxHandshakeListItems``), so an announcement built by hand from an
  /// unvalidated `connect` is bounded too. A server answers a longer one as any failed
  /// authentication: `auth_error`, then close.
  public static func negotiate(
    server: ServerOffer, client: ClientAnnouncement,
    maxListItems: Int = ValidationOptions.defaultMaxHandshakeListItems
  ) throws(HandshakeListTooLong) -> Result<NegotiationOutcome, NegotiationFailure> {
    for (list, items) in [("protocol_versions", client.protocolVersions), ("capabilities", client.capabilities)] {
      if let items, items.count > maxListItems {
        throw HandshakeListTooLong(list: list, count: items.count, limit: maxListItems)
      }
    }
    let version: ProtocolVersion
    switch decideVersion(server.versions, announced: client.protocolVersion) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let decided): version = decided
    }
    var accepted = Set(server.capabilities).intersection(client.capabilities ?? [])
    let authVersion = client.authVersion ?? 1
    if authVersion != 2 { accepted.remove(Capability.authenticatedFrames) }  // its keys come from auth v2
    return .success(
      NegotiationOutcome(version: version, capabilities: Array(accepted), authVersion: authVersion))
  }

  /// The version alone (steps 1-4 above) for an announced `protocol_version` (`nil`: absent or null).
  public static func decideVersion(_ versions: ServerVersions, announced: String?) -> Result<
    ProtocolVersion, NegotiationFailure
  > {
    guard case .negotiating(let floorName, let ceilingName) = versions else { return .success(.v0_2_0) }
    let floor = floorName.version
    guard let text = announced, let client = VersionNumber(announced: text) else { return .success(floor) }
    if versions.guardsAgainstOldClients, client < .oldestAccepted {
      return .failure(NegotiationFailure(received: text))
    }
    let effective = min(client, ceilingName.version.number)
    guard VersionNumber.mapped.contains(effective), let mapped = ProtocolVersion(effective) else {
      return .success(floor)
    }
    return .success(mapped)
  }
}
