import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One `URLSessionWebSocketTask` as a ``WebSocketTransport`` (made by ``URLSessionWebSocketConnector``).
/// `URLSession` runs the close handshake and answers pings; the close a peer sent is read from the
/// task's `closeCode` and `closeReason`.
final class URLSessionWebSocketTransport: WebSocketTransport {
  /// The task, shared with the session's own threads (URLSession synchronises its tasks).
  struct SendableTask: @unchecked Sendable {
    let value: URLSessionWebSocketTask
    init(_ value: URLSessionWebSocketTask) { self.value = value }
  }

  private let task: SendableTask
  private let closed = Locked<WebSocketClose?>(nil)

  init(task: SendableTask) {
    self.task = task
  }

  /// Returns once the server answered a ping (the upgrade is done); throws the task's error, or
  /// `CancellationError` (cancelling the task) when the calling task is cancelled.
  func waitUntilOpen() async throws {
    let task = self.task
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

  func send(_ message: WebSocketMessage) async throws {
    switch message {
    case .text(let bytes): try await task.value.send(.string(String(decoding: bytes, as: UTF8.self)))
    case .binary(let bytes): try await task.value.send(.data(Data(bytes)))
    }
  }

  func receive() async -> WebSocketReceived {
    if let close = closed.withLock({ $0 }) { return .closed(close) }
    do {
      switch try await task.value.receive() {
      case .string(let text): return .message(.text(Array(text.utf8)))
      case .data(let data): return .message(.binary(Array(data)))
      @unknown default: return .closed(finish(.abnormal))
      }
    } catch {
      return .closed(finish(peerClose()))
    }
  }

  func close(code: WebSocketCloseCode, reason: String) async {
    let first = closed.withLock { closed in
      guard closed == nil else { return false }
      closed = WebSocketClose(code: code, reason: reason)
      return true
    }
    guard first else { return }
    let taskCode = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
    task.value.cancel(with: taskCode, reason: Data(reason.utf8.prefix(123)))
  }

  /// The close the peer sent, or ``WebSocketClose/abnormal``.
  private func peerClose() -> WebSocketClose {
    let code = task.value.closeCode
    guard code != .invalid, let raw = UInt16(exactly: code.rawValue) else { return .abnormal }
    let reason = task.value.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
    return WebSocketClose(code: WebSocketCloseCode(rawValue: raw), reason: reason)
  }

  /// Records `close` unless one was recorded; returns the one that stays.
  private func finish(_ close: WebSocketClose) -> WebSocketClose {
    closed.withLock { closed in
      if let closed { return closed }
      closed = close
      return close
    }
  }
}
