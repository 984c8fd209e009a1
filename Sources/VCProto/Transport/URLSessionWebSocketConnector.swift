import Foundation
import VCProtoConnection
import VCProtoCore
import VCProtoJSON

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
/// `Transports` package instead. (The code that opens the task is compiled on every platform, so
/// Linux builds type-check it.)
///
/// A transport it opens closes with the close handshake: ``WebSocketTransport/close(code:reason:)``
/// sends the close frame and waits at most ``closeTimeout`` for the server's, and a receive pending
/// meanwhile reports the server's close code (1006 when none came in time).
public struct URLSessionWebSocketConnector: WebSocketConnector {
  /// The session the tasks are made in.
  public let session: URLSession
  /// The largest message received, in bytes (`URLSessionWebSocketTask.maximumMessageSize`).
  public let maximumMessageSize: Int
  /// `Sec-WebSocket-Protocol` values offered (none by default).
  public let subprotocols: [String]
  /// The longest a close waits for the server's close frame: 5 s by default (as the swift-nio
  /// transport's `closeTimeoutMilliseconds`).
  public let closeTimeout: Duration

  /// A connector making its tasks in `session`; messages larger than `maximumMessageSize` bytes
  /// (default 16 MiB) close the connection; a close waits at most `closeTimeout` (at least 0) for
  /// the server's close frame.
  public init(
    session: URLSession = .shared, maximumMessageSize: Int = 16 << 20, subprotocols: [String] = [],
    closeTimeout: Duration = .seconds(5)
  ) {
    self.session = session
    self.maximumMessageSize = maximumMessageSize
    self.subprotocols = subprotocols
    self.closeTimeout = max(closeTimeout, .zero)
  }

  /// Opens `url` and returns once the server answered a ping on the new connection (so the upgrade
  /// is done). Throws ``URLSessionWebSocketUnavailable`` on Linux, the task's error when the server
  /// cannot be reached or refuses the upgrade, `CancellationError` when the calling task is cancelled.
  public func connect(to url: URL) async throws -> any WebSocketTransport {
    #if canImport(FoundationNetworking)
      throw URLSessionWebSocketUnavailable()
    #else
      return try await open(url)
    #endif
  }

  /// What ``connect(to:)`` does on Apple platforms, compiled everywhere (on Linux the task fails:
  /// libcurl has no WebSocket support).
  package func open(_ url: URL) async throws -> any WebSocketTransport {
    let task =
      subprotocols.isEmpty
      ? session.webSocketTask(with: url) : session.webSocketTask(with: url, protocols: subprotocols)
    task.maximumMessageSize = maximumMessageSize
    task.resume()
    try await Self.waitUntilOpen(OpeningTask(value: task))
    return URLSessionWebSocketTransport(task: .init(task), closeTimeout: closeTimeout)
  }

  /// The task being opened, shared with the session's own threads (URLSession synchronises its tasks).
  private struct OpeningTask: @unchecked Sendable {
    let value: URLSessionWebSocketTask
  }

  /// Returns once the server answered a ping (the upgrade is done); throws the task's error, or
  /// `CancellationError` (cancelling the task) when the calling task is cancelled.
  private static func waitUntilOpen(_ task: OpeningTask) async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        task.value.sendPing { error in
          if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
      }
    } onCancel: {
      task.value.cancel(with: .goingAway, reason: nil)
    }
    try Task.checkCancellation()
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
