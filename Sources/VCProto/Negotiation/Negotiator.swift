/// Version and capability negotiation as a pure function (STANDARDS.md section 8).
public enum Negotiator {
  /// The server's decision for a client's announcement, in this order:
  ///
  /// 1. `protocol_versions` naming at least one parseable version: the highest version in both sets.
  /// 2. Else a parseable `protocol_version`: the client's ceiling, as in the real backend; the result
  ///    is the highest supported version not above it (`min(client, server max)`).
  /// 3. Else (nothing announced, or nothing parseable): the server's floor.
  ///
  /// Announced versions are parsed with ``ProtocolVersion/init(announced:)``. Capabilities are the
  /// intersection of both sets, without `authenticated_frames` unless the client uses auth v2 (its
  /// keys come from the v2 handshake); the auth version is the one the client's `connect` uses. Cases 1
  /// and 2 fail with `unsupported_protocol_version` when no supported version qualifies; case 3
  /// never fails.
  public static func negotiate(server: ServerOffer, client: ClientAnnouncement) -> Result<
    NegotiationOutcome, NegotiationFailure
  > {
    let supported = server.supportedVersions
    let listed = (client.protocolVersions ?? []).compactMap(ProtocolVersion.init(announced:))
    let chosen: ProtocolVersion?
    let requested: [String]
    let clientMax: ProtocolVersion
    if let highest = listed.max(), let list = client.protocolVersions {
      let wanted = Set(listed)
      chosen = supported.last(where: wanted.contains)
      (requested, clientMax) = (list, highest)
    } else if let text = client.protocolVersion, let ceiling = ProtocolVersion(announced: text) {
      chosen = supported.last { $0 <= ceiling }
      (requested, clientMax) = ([text], ceiling)
    } else {
      chosen = server.floorVersion
      (requested, clientMax) = ([], server.floorVersion)
    }
    guard let version = chosen else {
      let minimum = supported[0]
      return .failure(
        NegotiationFailure(
          message: clientMax < minimum ? "Client is too old; upgrade required" : "No common protocol version",
          required: minimum.description, received: client.protocolVersion ?? clientMax.description,
          supported: supported.map(\.description), requested: requested))
    }
    var accepted = Set(server.capabilities).intersection(client.capabilities ?? [])
    let authVersion = client.authVersion ?? 1
    if authVersion != 2 { accepted.remove(Capability.authenticatedFrames) }  // its keys come from auth v2
    return .success(
      NegotiationOutcome(version: version.description, capabilities: Array(accepted), authVersion: authVersion))
  }
}
