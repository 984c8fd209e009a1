import VCProto

/// One of the two sockets of a tapped connection.
enum TapSide: Sendable {
  /// The app's socket, accepted by the tap (the tap is its server).
  case client
  /// The backend's socket, opened by the tap (the tap is its client).
  case upstream

  /// The other socket.
  var other: TapSide { self == .client ? .upstream : .client }

  /// The direction of what arrives on this side.
  var direction: MessageDirection { self == .client ? .clientToServer : .serverToClient }
}
