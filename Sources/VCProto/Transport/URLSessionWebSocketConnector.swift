import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Opens client WebSocket connections with `URLSessionWebSocketTask` (`ws://` and `wss://`, TLS and
/// proxies as the system configures them): the transport for a ``ClientHost`` on Apple platforms.
///
/// On Linux it fails at once: this toolchain's FoundationNetworking is built without libcurl's
/// WebSocket support, so every `URLSessionWebSocketTask` fails with "WebSockets not supported by
/// libcurl" (no system libcurl changes that). ``connect(to:)`` throws
/// ``URLSessionWebSocketUnavailable`` there; use the swift-nio transport of the repository's
/// `Transports` package instead.
public struct URLSessionWebSocketConnector: WebSocketConnector {
  /// The session the tasks are made in.
  public let session: URLSession
  /// The largest message received, in bytes (`URLSessionWebSocketTask.maximumMessageSize`).
  public let maximumMessageSize: Int
  /// `Sec-WebSocket-Protocol` values offered (none by default).
  public let subprotocols: [String]

  /// A connector making its tasks in `session`; messages larger than `maximumMessageSize` bytes
  /// (default 16 MiB) close the connection.
  public init(session: URLSession = .shared, maximumMessageSize: Int = 16 << 20, subprotocols: [String] = []) {
    self.session = session
    self.maximumMessageSize = maximumMessageSize
    self.subprotocols = subprotocols
  }

  /// Opens `url` and returns once the server answered a ping on the new connection (so the upgrade
  /// is done). Throws ``URLSessionWebSocketUnavailable`` on Linux, the task's error when the server
  /// cannot be reached or refuses the upgrade, `CancellationError` when the calling task is cancelled.
  public func connect(to url: URL) async throws -> any WebSocketTransport {
    #if canImport(FoundationNetworking)
      throw URLSessionWebSocketUnavailable()
    #else
      let task = URLSessionWebSocketTransport.SendableTask(
        subprotocols.isEmpty
          ? session.webSocketTask(with: url) : session.webSocketTask(with: url, protocols: subprotocols))
      task.value.maximumMessageSize = maximumMessageSize
      task.value.resume()
      let transport = URLSessionWebSocketTransport(task: task)
      try await transport.waitUntilOpen()
      return transport
    #endif
  }
}

/// Thrown by ``URLSessionWebSocketConnector/connect(to:)`` on Linux.
public struct URLSessionWebSocketUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
  /// Creates the error.
  public init() {}

  public var description: String {
    "URLSessionWebSocketTask cannot work here: this toolchain's FoundationNetworking is built without "
      + "libcurl's WebSocket support (\"WebSockets not supported by libcurl\"); use the swift-nio "
      + "transport (VCProtoNIO in the Transports package)"
  }
}
