import Foundation
import Testing
import TransportTestSupport
import VCProto
import VCProtoNIO

@testable import VCProtoTap

/// The Swift transports on both ends of the tap: a ``WebSocketListener`` as the backend, a
/// ``WebSocketClient`` as the app.
@Suite struct SwiftPeersThroughTapTests {
  /// An echo backend: every message sent back as it came, closes answered with their code.
  func echoBackend() async throws -> WebSocketListener {
    let listener = try await WebSocketListener.bind(host: "127.0.0.1", port: 0)
    Task {
      while let connection = await listener.acceptConnection() {
        Task {
          while case .message(let message) = await connection.receive() { try await connection.send(message) }
        }
      }
    }
    return listener
  }

  @Test(.timeLimit(.minutes(1)))
  func messagesAndTheCloseCodeCrossUnchanged() async throws {
    let backend = try await echoBackend()
    let tap = try await RunningTap.start(upstream: "ws://127.0.0.1:\(backend.port)")
    let app = try await WebSocketClient.connect(
      to: WebSocketURL(tap.url("/v1?token=x"))!, headers: [("Sec-WebSocket-Protocol", "vc.a, vc.b")])
    #expect(app.subprotocol == "vc.a")
    let big = (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let messages: [WebSocketMessage] = [
      .text(#"{"type":"ping"}"#), .binary([0, 1, 2, 255]), .text(Array("not json ✓".utf8)), .binary(big),
      .text([0xFF, 0xFE]),  // not UTF-8: forwarded as it is
    ]
    for message in messages {
      try await app.send(message)
      #expect(await app.receive() == .message(message))
    }
    await app.close(code: WebSocketCloseCode(rawValue: 4002), reason: "bye")
    #expect(await app.peerCloseCode() == WebSocketCloseCode(rawValue: 4002))
    let live = await tap.finish()
    #expect(live == tap.validate().out)
    #expect(live.contains("10 frames"))
    await backend.close()
  }

  @Test(.timeLimit(.minutes(1)))
  func connectionsOverTheLimitGet503UntilOneCloses() async throws {
    let backend = try await echoBackend()
    let tap = try await RunningTap.start(upstream: "ws://127.0.0.1:\(backend.port)", maxConnections: 1)
    let url = WebSocketURL(tap.url())!
    let first = try await WebSocketClient.connect(to: url)
    await #expect(throws: WebSocketError.upgradeRefused("HTTP 503 Service Unavailable")) {
      _ = try await WebSocketClient.connect(to: url)
    }
    #expect(tap.log.text.contains("too many connections open (--max-connections 1)"))
    await first.close()
    let deadline = Date().addingTimeInterval(10)
    while tap.tap.openConnections > 0, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
    #expect(tap.tap.openConnections == 0)
    let again = try await WebSocketClient.connect(to: url)
    try await again.send(.text(#"{"type":"ping"}"#))
    #expect(await again.receive() == .message(.text(#"{"type":"ping"}"#)))
    await again.close()
    _ = await tap.finish()
    await backend.close()
  }

  @Test(.timeLimit(.minutes(1)))
  func aMessageOverTheLimitClosesBothSidesWith1009() async throws {
    let backend = try await echoBackend()
    var limits = WebSocketLimits.default
    limits.maxMessageBytes = 1_000
    let tap = try await RunningTap.start(upstream: "ws://127.0.0.1:\(backend.port)", limits: limits)
    let app = try await WebSocketClient.connect(to: WebSocketURL(tap.url())!)
    try await app.send(.binary([UInt8](repeating: 7, count: 1_001)))
    while case .message = await app.receive() {}
    #expect(await app.peerCloseCode() == .messageTooBig)
    #expect(tap.log.text.contains("larger than 1000 bytes"))
    _ = await tap.finish()
    await backend.close()
  }
}
