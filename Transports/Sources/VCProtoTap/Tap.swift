import NIOCore
import NIOPosix
import VCProtoNIO

/// A running tap: a listener whose every WebSocket connection is relayed to the backend
/// (``TapConnection``, ``TapRelay``) and shown to an observer.
public final class Tap: Sendable {
  let listener: WebSocketListener
  let log: TapLog

  private init(listener: WebSocketListener, log: TapLog) {
    self.listener = listener
    self.log = log
  }

  /// The port the tap listens on.
  public var port: Int { listener.port }

  /// Starts listening on `host:port` (port 0: any free port) and relaying to `upstream`.
  static func start(
    host: String, port: Int, upstream: WebSocketURL, limits: WebSocketLimits, log: TapLog,
    observer: TapObserver?, group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) async throws -> Tap {
    let counter = LockedBox(0)
    let listener = try await WebSocketListener.bind(host: host, port: port, limits: limits, group: group) {
      channel in
      let id = counter.withLock { n -> Int in
        n += 1
        return n
      }
      let relay = TapRelay(id: id, limits: limits, eventLoop: channel.eventLoop, log: log, observer: observer)
      return TapConnection(relay: relay, upstream: upstream)
    }
    return Tap(listener: listener, log: log)
  }

  /// Stops listening.
  public func stop() async {
    await listener.close()
  }
}
