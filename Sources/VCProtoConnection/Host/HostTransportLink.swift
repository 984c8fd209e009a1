import VCProtoCore
import VCProtoJSON

/// One open transport of a host, with the two tasks that use it: a reader that hands each received
/// message to the host (tagged with the transport's generation, so a late callback of an old
/// transport is recognised and ignored) and a writer that sends the host's messages in order, then
/// closes. The host talks to it only through ``send(_:)`` and ``close(_:)``. The reader reads the
/// next message only once `waitForRoom` returns (the host's backpressure, ``HostEventBuffer``).
final class HostTransportLink: Sendable {
  private enum Outgoing: Sendable {
    case message(WebSocketMessage)
    case close(WebSocketClose)
  }

  /// The generation the host gave this transport.
  let generation: Int
  /// The capture's number for this transport.
  let captureConnection: Int
  private let outbox: AsyncStream<Outgoing>.Continuation
  /// Ends once the transport is closed (after every message queued before the close was sent).
  let writer: Task<Void, Never>
  private let reader: Task<Void, Never>

  /// Starts reading and writing `transport`. `received` gets each message, `closed` the close (or,
  /// when a send failed, ``WebSocketClose/abnormal``), at most once; both are called from the link's
  /// tasks. The reader awaits `waitForRoom` before each read.
  init(
    transport: any WebSocketTransport, generation: Int, captureConnection: Int,
    waitForRoom: @escaping @Sendable () async -> Void,
    received: @escaping @Sendable (WebSocketMessage) async -> Void,
    closed: @escaping @Sendable (WebSocketClose) async -> Void
  ) {
    self.generation = generation
    self.captureConnection = captureConnection
    let (stream, outbox) = AsyncStream.makeStream(of: Outgoing.self)
    self.outbox = outbox
    writer = Task {
      for await item in stream {
        switch item {
        case .message(let message):
          do {
            try await transport.send(message)
          } catch {
            await transport.close(code: .goingAway, reason: "send failed")
            await closed(.abnormal)
            return
          }
        case .close(let close):
          await transport.close(code: close.code, reason: close.reason)
          return
        }
      }
      await transport.close(code: .normalClosure, reason: "")
    }
    reader = Task {
      while true {
        await waitForRoom()
        switch await transport.receive() {
        case .message(let message): await received(message)
        case .closed(let close):
          await closed(close)
          return
        }
      }
    }
  }

  /// Queues `message` behind the ones queued before.
  func send(_ message: WebSocketMessage) {
    outbox.yield(.message(message))
  }

  /// Sends what is queued, then closes with `close`; later sends are dropped.
  func close(_ close: WebSocketClose) {
    outbox.yield(.close(close))
    outbox.finish()
  }
}
