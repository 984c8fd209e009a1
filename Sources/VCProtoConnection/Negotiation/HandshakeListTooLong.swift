import VCProtoCore
import VCProtoJSON

/// A client announcement with a list longer than the handshake-list cap (STANDARDS.md#limits,
/// the same cap the validator applies as `handshake_list_too_long`): the negotiator refuses it before
/// it reads any entry, so a peer cannot make a server sort or intersect 100,000 capabilities.
public struct HandshakeListTooLong: Error, Sendable, Hashable, CustomStringConvertible {
  /// The `connect` member the list is: `protocol_versions` or `capabilities`.
  public var list: String
  /// How many entries it has.
  public var count: Int
  /// The cap it exceeds.
  public var limit: Int

  /// Creates the error for `list` with `count` entries over `limit`.
  public init(list: String, count: Int, limit: Int) {
    self.list = list
    self.count = count
    self.limit = limit
  }

  /// Names the list, its length and the cap (no entry is quoted).
  public var description: String {
    "connect.\(list) lists \(count) entries; a handshake list has at most \(limit) (handshake_list_too_long)"
  }
}
