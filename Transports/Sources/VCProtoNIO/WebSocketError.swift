/// Why a WebSocket operation failed.
public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The URL is not `ws://host[:port][/path][?query]` (`wss://` needs TLS, which this package does
  /// not carry).
  case invalidURL(String)
  /// The TCP connect or the HTTP upgrade took longer than the connect deadline.
  case connectTimedOut(milliseconds: Int64)
  /// The server answered the upgrade request with something other than 101.
  case upgradeRefused(String)
  /// The connection is closed (by either side); no more messages can be sent.
  case closed
  /// A message larger than the limit was received or is being sent.
  case messageTooBig(limit: Int)

  public var description: String {
    switch self {
    case .invalidURL(let url): return "invalid WebSocket URL '\(url)' (expected ws://host[:port][/path][?query])"
    case .connectTimedOut(let ms): return "connect and upgrade took longer than \(ms) ms"
    case .upgradeRefused(let why): return "the server refused the WebSocket upgrade: \(why)"
    case .closed: return "the WebSocket connection is closed"
    case .messageTooBig(let limit): return "message larger than \(limit) bytes"
    }
  }
}
