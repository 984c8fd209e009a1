import Foundation
import Testing

@testable import VCProto
@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSessionWebSocketTransport`'s close handshake, over a task that plays URLSession's part (this
/// toolchain's FoundationNetworking cannot run a real WebSocket task): after a local close, a
/// pending receive reports the peer's close code, and the close waits for it, bounded.
@Suite struct URLSessionWebSocketTransportCloseTests {
  /// A `URLSessionWebSocketTask` as the transport sees it: `cancel(with:reason:)` fails a pending
  /// receive at once (as URLSession does) and, unless the peer is silent, the peer's close frame
  /// arrives `answerDelay` later.
  final class FakeTask: URLSessionWebSocketTaskProtocol, @unchecked Sendable {
    struct Failed: Error {}
    private struct State {
      var receiver: CheckedContinuation<URLSessionWebSocketTask.Message, any Error>?
      var cancelled = false
      var closeCode = URLSessionWebSocketTask.CloseCode.invalid
      var closeReason: Data?
      var sentClose: URLSessionWebSocketTask.CloseCode?
    }

    private let state = Locked(State())
    let peerAnswer: (code: URLSessionWebSocketTask.CloseCode, reason: String)?
    let answerDelay: Duration

    init(peerAnswer: (code: URLSessionWebSocketTask.CloseCode, reason: String)?, answerDelay: Duration) {
      self.peerAnswer = peerAnswer
      self.answerDelay = answerDelay
    }

    var sentClose: URLSessionWebSocketTask.CloseCode? { state.withLock { $0.sentClose } }
    var isReceiving: Bool { state.withLock { $0.receiver != nil } }

    func send(_ message: URLSessionWebSocketTask.Message) async throws {}

    func receive() async throws -> URLSessionWebSocketTask.Message {
      try await withCheckedThrowingContinuation { continuation in
        let cancelled = state.withLock { state in
          if state.cancelled { return true }
          state.receiver = continuation
          return false
        }
        if cancelled { continuation.resume(throwing: Failed()) }
      }
    }

    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
      let receiver = state.withLock { state in
        state.cancelled = true
        state.sentClose = closeCode
        defer { state.receiver = nil }
        return state.receiver
      }
      receiver?.resume(throwing: Failed())
      guard let peerAnswer else { return }
      let delay = answerDelay
      Task {
        try await Task.sleep(for: delay)
        self.state.withLock { state in
          state.closeCode = peerAnswer.code
          state.closeReason = Data(peerAnswer.reason.utf8)
        }
      }
    }

    var closeCode: URLSessionWebSocketTask.CloseCode { state.withLock { $0.closeCode } }
    var closeReason: Data? { state.withLock { $0.closeReason } }
  }

  @Test func aPendingReceiveReportsThePeersCloseAfterALocalClose() async throws {
    try await withDeadline {
      let task = FakeTask(peerAnswer: (.policyViolation, "bye"), answerDelay: .milliseconds(50))
      let transport = URLSessionWebSocketTransport(task: .init(task), closeTimeout: .seconds(5))
      let received = Task { await transport.receive() }
      while !task.isReceiving { await Task.yield() }
      await transport.close(code: .goingAway, reason: "pong_timeout")
      #expect(task.sentClose == .goingAway)
      // The close returned after the peer's answer, and the receive reports the peer's code.
      let peer = WebSocketClose(code: WebSocketCloseCode(rawValue: 1008), reason: "bye")
      #expect(await received.value == .closed(peer))
      #expect(await transport.receive() == .closed(peer))
    }
  }

  @Test func aCloseWithoutThePeersAnswerEndsAfterTheTimeoutAs1006() async throws {
    try await withDeadline {
      let task = FakeTask(peerAnswer: nil, answerDelay: .zero)
      let transport = URLSessionWebSocketTransport(task: .init(task), closeTimeout: .milliseconds(100))
      let received = Task { await transport.receive() }
      while !task.isReceiving { await Task.yield() }
      let start = ContinuousClock.now
      await transport.close(code: .normalClosure, reason: "")
      let waited = ContinuousClock.now - start
      #expect(waited >= .milliseconds(100))
      #expect(waited < .seconds(5))
      #expect(await received.value == .closed(.abnormal))
    }
  }

  #if canImport(FoundationNetworking)
    /// The code `connect` runs on Apple platforms, run here: FoundationNetworking's task fails
    /// (libcurl has no WebSocket support), and the open throws instead of hanging.
    @Test func theApplePathOfConnectFailsHereWithoutHanging() async throws {
      try await withDeadline(seconds: 15) {
        let connector = URLSessionWebSocketConnector()
        await #expect(throws: (any Error).self) { _ = try await connector.open(URL(string: "ws://127.0.0.1:9/")!) }
      }
    }
  #endif
}
