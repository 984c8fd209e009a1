import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The in-memory transport keeps the ``WebSocketTransport`` contract the hosts rely on.
@Suite struct InMemoryWebSocketTests {
  @Test func messagesArriveInOrderBothWays() async throws {
    let (client, server) = InMemoryWebSocket.pair()
    try await client.send(.text("one"))
    try await client.send(.binary([0x56, 0x43]))
    try await server.send(.text("back"))
    #expect(await server.receive() == .message(.text("one")))
    #expect(await server.receive() == .message(.binary([0x56, 0x43])))
    #expect(await client.receive() == .message(.text("back")))
  }

  @Test func aPendingReceiveGetsTheNextMessage() async throws {
    let (client, server) = InMemoryWebSocket.pair()
    async let received = server.receive()
    try await client.send(.text("late"))
    #expect(await received == .message(.text("late")))
  }

  @Test func theCloseArrivesAfterTheMessagesSentBeforeItAndStays() async throws {
    let (client, server) = InMemoryWebSocket.pair()
    try await client.send(.text("last words"))
    await client.close(code: WebSocketCloseCode(rawValue: 4000), reason: "bye")
    let close = WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "bye")
    #expect(await server.receive() == .message(.text("last words")))
    #expect(await server.receive() == .closed(close))
    #expect(await server.receive() == .closed(close))
    #expect(await client.receive() == .closed(close))
    await #expect(throws: InMemoryWebSocketClosed.self) { try await server.send(.text("too late")) }
    // A second close changes nothing.
    await server.close(code: .normalClosure, reason: "")
    #expect(await client.receive() == .closed(close))
  }

  @Test func closeEndsAPendingReceive() async throws {
    let (client, server) = InMemoryWebSocket.pair()
    async let received = server.receive()
    await server.close(code: .goingAway, reason: "")
    #expect(await received == .closed(WebSocketClose(code: .goingAway)))
    #expect(client.closed == WebSocketClose(code: .goingAway))
  }

  @Test func aDropIsAnAbnormalCloseOnBothEnds() async throws {
    let (client, server) = InMemoryWebSocket.pair()
    async let pending = client.receive()
    server.drop()
    #expect(await pending == .closed(.abnormal))
    #expect(await server.receive() == .closed(.abnormal))
    #expect(WebSocketClose.abnormal.code.rawValue == 1006)
  }

  @Test func theNetworkHandsTheServerEndToAccept() async throws {
    let network = InMemoryWebSocketNetwork()
    let url = try #require(URL(string: "ws://in-memory/"))
    let client = try await network.connect(to: url)
    let server = try #require(await network.accept())
    try await client.send(.text("hello"))
    #expect(await server.receive() == .message(.text("hello")))
    #expect(network.urls == [url])
    network.refuseConnections(true)
    await #expect(throws: InMemoryWebSocketNetwork.Refused.self) { _ = try await network.connect(to: url) }
    network.refuseConnections(false)
    async let accepted = network.accept()
    _ = try await network.connect(to: url)
    #expect(await accepted != nil)
    #expect(network.clientEnds.count == 2)
    await network.close()
    #expect(await network.accept() == nil)
  }
}
