import VCProtoCore
import VCProtoJSON

/// One end of an in-memory WebSocket connection, for tests: ``pair()`` makes two connected ends.
/// Keeps the ``WebSocketTransport`` contract: messages arrive in order, a close reaches the other
/// end after the messages sent before it, and ``receive()`` returns the close again and again.
/// ``drop()`` plays a network failure (both ends see 1006, no close frame).
package final class InMemoryWebSocket: WebSocketTransport {
  private let pipe: InMemoryPipe
  private let side: Int

  private init(pipe: InMemoryPipe, side: Int) {
    self.pipe = pipe
    self.side = side
  }

  /// Two connected ends (client, server).
  package static func pair() -> (InMemoryWebSocket, InMemoryWebSocket) {
    let pipe = InMemoryPipe()
    return (InMemoryWebSocket(pipe: pipe, side: 0), InMemoryWebSocket(pipe: pipe, side: 1))
  }

  package func send(_ message: WebSocketMessage) async throws {
    try pipe.send(message, from: side)
  }

  package func receive() async -> WebSocketReceived {
    await withCheckedContinuation { continuation in
      pipe.receive(side: side, continuation)
    }
  }

  package func close(code: WebSocketCloseCode, reason: String) async {
    pipe.close(WebSocketClose(code: code, reason: reason))
  }

  /// The network fails: both ends are closed with ``WebSocketClose/abnormal`` after what they
  /// already received.
  package func drop() {
    pipe.close(.abnormal)
  }

  /// How the connection ended, or `nil` while it is open.
  package var closed: WebSocketClose? { pipe.closed }
}

/// Thrown by ``InMemoryWebSocket/send(_:)`` once the connection is closed.
package struct InMemoryWebSocketClosed: Error, Sendable, Hashable {}

/// The state both ends share.
private final class InMemoryPipe: Sendable {
  private struct Inbox {
    var messages: [WebSocketMessage] = []
    var head = 0
    var waiter: CheckedContinuation<WebSocketReceived, Never>?
  }

  private struct State {
    var inboxes = [Inbox(), Inbox()]
    var closed: WebSocketClose?
  }

  private let state = Locked(State())

  var closed: WebSocketClose? { state.withLock { $0.closed } }

  func send(_ message: WebSocketMessage, from side: Int) throws {
    let waiter: CheckedContinuation<WebSocketReceived, Never>? = try state.withLock { state in
      if state.closed != nil { throw InMemoryWebSocketClosed() }
      let other = 1 - side
      if let waiter = state.inboxes[other].waiter {
        state.inboxes[other].waiter = nil
        return waiter
      }
      state.inboxes[other].messages.append(message)
      return nil
    }
    waiter?.resume(returning: .message(message))
  }

  func receive(side: Int, _ continuation: CheckedContinuation<WebSocketReceived, Never>) {
    let ready: WebSocketReceived? = state.withLock { state in
      let head = state.inboxes[side].head
      if head < state.inboxes[side].messages.count {
        let message = state.inboxes[side].messages[head]
        state.inboxes[side].head = head + 1
        if head + 1 == state.inboxes[side].messages.count {
          state.inboxes[side].messages.removeAll(keepingCapacity: true)
          state.inboxes[side].head = 0
        }
        return .message(message)
      }
      if let closed = state.closed { return .closed(closed) }
      precondition(state.inboxes[side].waiter == nil, "two tasks receive on one InMemoryWebSocket")
      state.inboxes[side].waiter = continuation
      return nil
    }
    if let ready { continuation.resume(returning: ready) }
  }

  func close(_ close: WebSocketClose) {
    let waiters: [CheckedContinuation<WebSocketReceived, Never>] = state.withLock { state in
      guard state.closed == nil else { return [] }
      state.closed = close
      var waiters: [CheckedContinuation<WebSocketReceived, Never>] = []
      for side in 0..<2 {
        if let waiter = state.inboxes[side].waiter {
          waiters.append(waiter)
          state.inboxes[side].waiter = nil
        }
      }
      return waiters
    }
    for waiter in waiters { waiter.resume(returning: .closed(close)) }
  }
}
