import VCProtoJSON

/// Which peer sends a message. The two directions' type sets are disjoint.
public enum MessageDirection: String, Sendable, Hashable, CaseIterable, Codable {
  /// Sent by the app (iOS, Android, web) to the backend.
  case clientToServer = "client_to_server"
  /// Sent by the backend to the app.
  case serverToClient = "server_to_client"

  /// The other direction.
  public var reversed: MessageDirection {
    self == .clientToServer ? .serverToClient : .clientToServer
  }
}
