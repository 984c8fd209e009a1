import VCProtoCore
import VCProtoJSON

/// Where a server conversation stands (one per socket).
public enum ServerState: String, Sendable, Hashable, CaseIterable {
  /// Created; the socket is not open yet.
  case idle
  /// `hello` sent; only `ping` and `connect` are accepted.
  case awaitingConnect = "awaiting_connect"
  /// Authenticated.
  case authenticated
  /// Closed: the engine emits nothing more.
  case closed
}
