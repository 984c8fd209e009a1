import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

extension ConformanceKind {
  /// `negotiation/`: the peer decides as a server with offer `server` facing `client`; its result
  /// must be the vector's `expect` (or, in the older format, `outcome`) as data (members in any
  /// order; lists in order).
  static let negotiation = ConformanceKind(
    name: "negotiation",
    input: { members(of: $0, ["server", "client"]) },
    compare: { vector, result in
      guard let outcome = vector["expect"] ?? vector["outcome"] else {
        return ["the vector has neither \"expect\" nor \"outcome\""]
      }
      return same(outcome, result) ? [] : ["expected \(show(outcome)), got \(show(result))"]
    })
}
