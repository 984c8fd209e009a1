import VCProtoCore
import VCProtoJSON

/// Hands out the WebSocket connections a server accepted: what `ServerHost` serves, one
/// ``ServerEngine`` per connection.
///
/// ``accept()`` waits for the next connection (open, the upgrade done) and returns `nil` once the
/// listener is closed and no accepted connection is waiting. ``close()`` stops accepting; connections
/// already handed out stay open (their hosts close them).
public protocol WebSocketTransportListener: Sendable {
  /// The next accepted connection, or `nil` once the listener is closed.
  func accept() async -> (any WebSocketTransport)?

  /// Stops accepting connections; a pending ``accept()`` returns `nil`.
  func close() async
}
