import VCProto

extension ConformanceKind {
  /// `negotiation/`: the peer decides as a server with offer `server` facing `client`; its result
  /// must be the vector's `outcome` as data (members in any order; lists in order).
  static let negotiation = ConformanceKind(
    name: "negotiation",
    input: { members(of: $0, ["server", "client"]) },
    compare: { vector, result in
      guard let outcome = vector["outcome"] else { return ["the vector has no \"outcome\""] }
      return same(outcome, result) ? [] : ["expected \(show(outcome)), got \(show(result))"]
    })
}
