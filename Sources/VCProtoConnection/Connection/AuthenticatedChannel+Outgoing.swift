import VCProtoCore
import VCProtoJSON

extension AuthenticatedChannel {
  /// `frame` as an engine puts it on the wire: sealed by `channel` when authenticated frames are in
  /// force (STANDARDS.md#negotiation-and-auth), else as it is. `nil` once the channel has used its last sequence
  /// number: `exhausted` is then set, nothing more is sent, and the engine closes the connection at
  /// the end of the event.
  static func outgoing(
    _ frame: JSONObject, channel: inout AuthenticatedChannel?, exhausted: inout Bool
  ) -> JSONObject? {
    guard channel != nil else { return frame }
    guard !exhausted else { return nil }
    do {
      return try channel!.seal(object: frame)
    } catch {
      exhausted = true
      return nil
    }
  }
}
