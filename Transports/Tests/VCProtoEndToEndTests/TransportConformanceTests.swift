import Foundation
import NIOCore
import NIOPosix
import Testing
import TransportTestSupport
import VCProto
import VCProtoNIO

/// The NIO transports as the library's transport protocol sees them: ``WebSocketClient`` as a
/// `WebSocketConnector`, ``WebSocketListener`` as a `WebSocketTransportListener`, each
/// ``WebSocketConnection`` as a `WebSocketTransport` (order, the close with its code and reason,
/// receive after close, cancellation). Loopback only; every test has a time limit.
@Suite struct TransportConformanceTests {
  /// A listener and a connected pair, seen only through the protocols.
  static func pair(limits: WebSocketLimits = .default) async throws -> (
    listener: any WebSocketTransportListener, client: any WebSocketTransport, server: any WebSocketTransport
  ) {
    let bound = try await WebSocketListener.bind(host: "127.0.0.1", port: 0, limits: limits)
    let listener: any WebSocketTransportListener = bound
    let connector: any WebSocketConnector = WebSocketClient(limits: limits)
    let client = try await connector.connect(to: URL(string: "ws://127.0.0.1:\(bound.port)/path")!)
    guard let server = await listener.accept() else { throw TestFailure("nothing accepted") }
    return (listener, client, server)
  }

  @Test(.timeLimit(.minutes(1)))
  func messagesBothWaysThenTheCloseWithItsCodeAndReason() async throws {
    let (listener, client, server) = try await Self.pair()
    try await client.send(.text(#"{"type":"ping"}"#))
    try await client.send(.binary([0, 1, 255]))
    try await server.send(.text("é ✓"))
    #expect(await server.receive() == .message(.text(#"{"type":"ping"}"#)))
    #expect(await server.receive() == .message(.binary([0, 1, 255])))
    #expect(await client.receive() == .message(.text("é ✓")))
    // A message sent before the close frame arrives before the close.
    try await client.send(.text("last"))
    await client.close(code: WebSocketCloseCode(rawValue: 4001), reason: "bye")
    #expect(await server.receive() == .message(.text("last")))
    #expect(await server.receive() == .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4001), reason: "bye")))
    // The same close on every later receive, on both sides (the server echoed the code).
    #expect(await server.receive() == .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4001), reason: "bye")))
    #expect(await client.receive() == .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4001))))
    #expect(await client.receive() == .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4001))))
    // Closing again does nothing; sending on a closed connection throws.
    await client.close(code: .normalClosure, reason: "")
    await server.close(code: .normalClosure, reason: "")
    await #expect(throws: WebSocketError.closed) { try await client.send(.text("late")) }
    await listener.close()
  }

  @Test(.timeLimit(.minutes(1)))
  func aSocketGoneWithoutACloseFrameIsAbnormal() async throws {
    let (listener, client, server) = try await Self.pair()
    try await (server as! WebSocketConnection).channel.close()
    #expect(await client.receive() == .closed(.abnormal))
    #expect(await server.receive() == .closed(.abnormal))
    await listener.close()
  }

  @Test(.timeLimit(.minutes(1)))
  func aMessageOverTheLimitEndsTheReceiverWith1009() async throws {
    var limits = WebSocketLimits.default
    limits.maxMessageBytes = 1_000
    let (listener, client, server) = try await Self.pair(limits: limits)
    try await client.send(.binary([UInt8](repeating: 7, count: 2_000)))
    guard case .closed(let close) = await server.receive() else { throw TestFailure("a message arrived") }
    #expect(close.code == .messageTooBig)
    guard case .closed(let seen) = await client.receive() else { throw TestFailure("a message arrived") }
    #expect(seen.code == .messageTooBig)
    await listener.close()
  }

  @Test(.timeLimit(.minutes(1)))
  func aClosedListenerAcceptsNothing() async throws {
    let listener: any WebSocketTransportListener = try await WebSocketListener.bind(host: "127.0.0.1", port: 0)
    let pending = Task { await listener.accept() }
    try await Task.sleep(nanoseconds: 50_000_000)
    await listener.close()
    #expect(await pending.value == nil)
  }

  @Test(.timeLimit(.minutes(1)))
  func theConnectorRefusesOtherSchemesAndHonoursCancellation() async throws {
    let connector: any WebSocketConnector = WebSocketClient()
    await #expect(throws: WebSocketError.invalidURL("wss://127.0.0.1:1/")) {
      _ = try await connector.connect(to: URL(string: "wss://127.0.0.1:1/")!)
    }
    // A server that accepts TCP and never answers the upgrade: the connect waits (its deadline is
    // 10 s) until its task is cancelled, then throws at once.
    let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .bind(host: "127.0.0.1", port: 0).get()
    let url = URL(string: "ws://127.0.0.1:\(silent.localAddress!.port!)/")!
    let connecting = Task { try await connector.connect(to: url) }
    try await Task.sleep(nanoseconds: 200_000_000)
    let cancelled = Date()
    connecting.cancel()
    await #expect(throws: CancellationError.self) { _ = try await connecting.value }
    #expect(Date().timeIntervalSince(cancelled) < 2)
    try await silent.close()
  }
}
