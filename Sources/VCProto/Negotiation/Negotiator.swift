/// Version and capability negotiation as a pure function (STANDARDS.md section 8).
public enum Negotiator {
  /// The highest version both support and the capabilities both want; a client that announces no
  /// version is a 0.2.0 client. Unparseable version strings are ignored.
  public static func negotiate(server: ServerOffer, client: ClientAnnouncement) -> Result<
    NegotiationOutcome, NegotiationFailure
  > {
    let requested = client.protocolVersions ?? client.protocolVersion.map { [$0] } ?? []
    var clientVersions = Set(requested.compactMap(ProtocolVersion.init))
    if clientVersions.isEmpty { clientVersions = [.legacy] }
    let serverVersions = Set(server.protocolVersions.compactMap(ProtocolVersion.init))
    guard let version = clientVersions.intersection(serverVersions).max() else {
      let received = client.protocolVersion ?? clientVersions.max()?.description ?? "0.2.0"
      return .failure(
        NegotiationFailure(
          required: serverVersions.min()?.description ?? "", received: received,
          supported: serverVersions.sorted().map(\.description),
          requested: requested.isEmpty ? ["0.2.0"] : requested))
    }
    let wanted = Set(client.capabilities ?? [])
    return .success(
      NegotiationOutcome(
        version: version.description, capabilities: server.capabilities.filter(wanted.contains)))
  }
}
