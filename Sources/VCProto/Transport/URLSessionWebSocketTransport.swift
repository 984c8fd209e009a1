import Foundation
import VCProtoConnection
import VCProtoCore
import VCProtoJSON

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What ``URLSessionWebSocketTransport`` uses of a `URLSessionWebSocketTask`: the seam a test
/// replaces with a task of its own (this toolchain's FoundationNetworking cannot run a real one).
protocol URLSessionWebSocketTaskProtocol: AnyObject {
  func send(_ message: URLSessionWebSocketTask.Message) async throws
  func receive() async throws -> URLSessionWebSocketTask.Message
  func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?)
  /// `.invalid` until the peer's close frame arrived, then its code.
  var closeCode: URLSessionWebSocketTask.CloseCode { get }
  var closeReason: Data? { get }
}

extension URLSessionWebSocketTask: URLSessionWebSocketTaskProtocol {}

/// One `URLSessionWebSocketTask` as a ``WebSocketTransport`` (made by ``URLSessionWebSocketConnector``).
/// `URLSession` answers pings; the close a peer sent is read from the task's `closeCode` and
/// `closeReason`.
///
/// **Closing.** ``close(code:reason:)`` sends the close frame, then waits for the peer's (the task's
/// `closeCode` set) at most `closeTimeout`, polling every 10 ms; a ``receive()`` pending meanwhile
/// (the task fails it as soon as it closes) waits the same way. Both then report the peer's close,
/// or ``WebSocketClose/abnormal`` (1006, RFC 6455 section 7.1.5) when none came in time.
final class URLSessionWebSocketTransport: WebSocketTransport {
  /// The task, shared with the session's own threads (URLSession synchronises its tasks).
  struct SendableTask: @unchecked Sendable {
    let value: any URLSessionWebSocketTaskProtocol
    init(_ value: any URLSessionWebSocketTaskProtocol) { self.value = value }
  }

  private struct State {
    /// The close this side sent, once it did.
    var sent: WebSocketClose?
    /// How the connection ended, once known: what ``receive()`` returns from then on.
    var ended: WebSocketClose?
  }

  private let task: SendableTask
  /// The longest ``close(code:reason:)`` waits for the peer's close frame.
  let closeTimeout: Duration
  private let state = Locked(State())

  init(task: SendableTask, closeTimeout: Duration) {
    self.task = task
    self.closeTimeout = closeTimeout
  }

  func send(_ message: WebSocketMessage) async throws {
    switch message {
    case .text(let bytes): try await task.value.send(.string(String(decoding: bytes, as: UTF8.self)))
    case .binary(let bytes): try await task.value.send(.data(Data(bytes)))
    }
  }

  func receive() async -> WebSocketReceived {
    if let ended = state.withLock({ $0.ended }) { return .closed(ended) }
    do {
      switch try await task.value.receive() {
      case .string(let text): return .message(.text(Array(text.utf8)))
      case .data(let data): return .message(.binary(Array(data)))
      @unknown default: return .closed(finish(.abnormal))
      }
    } catch {
      // After this side's close the task fails a pending receive at once: the peer's answer may
      // still be on its way.
      if state.withLock({ $0.sent != nil }) { await waitForPeerClose() }
      return .closed(finish(peerClose()))
    }
  }

  func close(code: WebSocketCloseCode, reason: String) async {
    let first = state.withLock { state in
      guard state.sent == nil, state.ended == nil else { return false }
      state.sent = WebSocketClose(code: code, reason: reason)
      return true
    }
    guard first else { return }
    let taskCode = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
    task.value.cancel(with: taskCode, reason: Data(reason.utf8.prefix(123)))
    await waitForPeerClose()
    _ = finish(peerClose())
  }

  /// Returns once the peer's close frame arrived, the connection's end is known, or `closeTimeout`
  /// passed (or the calling task was cancelled).
  private func waitForPeerClose() async {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: closeTimeout)
    while task.value.closeCode == .invalid, state.withLock({ $0.ended == nil }), clock.now < deadline {
      do { try await clock.sleep(for: .milliseconds(10)) } catch { return }
    }
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
    state.withLock { state in
      if let ended = state.ended { return ended }
      state.ended = close
      return close
    }
  }
}
