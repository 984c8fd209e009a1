import VCProtoCore
import VCProtoJSON

/// Where a client conversation stands.
public enum ClientState: String, Sendable, Hashable, CaseIterable {
  /// Created, never started.
  case idle
  /// The host was asked to open a socket.
  case connecting
  /// The socket is open; waiting for `hello`.
  case awaitingHello = "awaiting_hello"
  /// `connect` sent; waiting for `connected` (or, from a 0.2.0/0.3.0 server, any frame but
  /// `auth_error`). Nothing but `ping` may be sent.
  case awaitingConnected = "awaiting_connected"
  /// Authenticated: requests, subscriptions and keepalive run.
  case ready
  /// The connection is gone; the reconnect timer is armed.
  case backingOff = "backing_off"
  /// The server refused the key (or the client refused the server): nothing happens until ``ClientEvent/start``.
  case reauthRequired = "reauth_required"
  /// No common protocol version: nothing happens until ``ClientEvent/start``.
  case upgradeRequired = "upgrade_required"
  /// Stopped by the application (or gave up reconnecting).
  case stopped
}
