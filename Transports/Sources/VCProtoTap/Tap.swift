import NIOCore
import NIOPosix
import VCProtoNIO

/// A running tap: a listener whose every WebSocket connection is relayed to the backend
/// (``TapConnection``, ``TapRelay``) and shown to an observer.
public final class Tap: Sendable {
  let listener: WebSocketListener
  let log: TapLog
  let admission: TapAdmission

  private init(listener: WebSocketListener, log: TapLog, admission: TapAdmission) {
    self.listener = listener
    self.log = log
    self.admission = admission
  }

  /// Connections open now (both sockets or the app's upgrade under way).
  var openConnections: Int { admission.count }

  /// The port the tap listens on.
  public var port: Int { listener.port }

  /// Starts listening on `host:port` (port 0: any free port) and relaying to `upstream`.
  static func start(
    host: String, port: Int, upstream: WebSocketURL, limits: WebSocketLimits, log: TapLog,
    observer: TapObserver?, maxConnections: Int = TapOptions.defaultMaxConnections,
    group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
  ) async throws -> Tap {
    let counter = LockedBox(0)
    let admission = TapAdmission(limit: maxConnections)
    let listener = try await WebSocketListener.bind(host: host, port: port, limits: limits, group: group) {
      channel in
      let id = counter.withLock { n -> Int in
        n += 1
        return n
      }
      let relay = TapRelay(id: id, limits: limits, eventLoop: channel.eventLoop, log: log, observer: observer)
      return TapConnection(relay: relay, upstream: upstream, admission: admission)
    }
    return Tap(listener: listener, log: log, admission: admission)
  }

  /// Stops listening.
  public func stop() async {
    await listener.close()
  }
}
