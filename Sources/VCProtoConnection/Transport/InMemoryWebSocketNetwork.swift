import Foundation
import VCProtoCore
import VCProtoJSON

/// An in-memory server for tests: a ``WebSocketConnector`` whose every connect makes an
/// ``InMemoryWebSocket`` pair and hands the server end to ``accept()`` (a
/// ``WebSocketTransportListener``). ``refuseConnections(_:)`` plays a server that is down;
/// ``clientEnds`` and ``serverEnds`` are the ends made so far, for a test to ``InMemoryWebSocket/drop()`` one.
package final class InMemoryWebSocketNetwork: WebSocketConnector, WebSocketTransportListener {
  private struct State {
    var refusing = false
    var closed = false
    var waiting: [InMemoryWebSocket] = []
    var acceptor: CheckedContinuation<(any WebSocketTransport)?, Never>?
    var clientEnds: [InMemoryWebSocket] = []
    var serverEnds: [InMemoryWebSocket] = []
    var urls: [URL] = []
  }

  private let state = Locked(State())

  /// An open network with no connection yet.
  package init() {}

  /// Thrown by ``connect(to:)`` while connections are refused or the listener is closed.
  package struct Refused: Error, Sendable, Hashable {}

  /// While `refusing`, every connect throws ``Refused``.
  package func refuseConnections(_ refusing: Bool) {
    state.withLock { $0.refusing = refusing }
  }

  /// The client ends made so far, oldest first.
  package var clientEnds: [InMemoryWebSocket] { state.withLock { $0.clientEnds } }

  /// The server ends made so far, oldest first.
  package var serverEnds: [InMemoryWebSocket] { state.withLock { $0.serverEnds } }

  /// The URLs connected to so far, oldest first.
  package var urls: [URL] { state.withLock { $0.urls } }

  package func connect(to url: URL) async throws -> any WebSocketTransport {
    let (client, server) = InMemoryWebSocket.pair()
    let acceptor: CheckedContinuation<(any WebSocketTransport)?, Never>? = try state.withLock { state in
      if state.refusing || state.closed { throw Refused() }
      state.clientEnds.append(client)
      state.serverEnds.append(server)
      state.urls.append(url)
      if let acceptor = state.acceptor {
        state.acceptor = nil
        return acceptor
      }
      state.waiting.append(server)
      return nil
    }
    acceptor?.resume(returning: server)
    return client
  }

  package func accept() async -> (any WebSocketTransport)? {
    await withCheckedContinuation { continuation in
      let ready: (any WebSocketTransport)?? = state.withLock { state in
        if !state.waiting.isEmpty { return .some(state.waiting.removeFirst()) }
        if state.closed { return .some(nil) }
        precondition(state.acceptor == nil, "two tasks accept on one InMemoryWebSocketNetwork")
        state.acceptor = continuation
        return .none
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  package func close() async {
    let acceptor = state.withLock { state in
      state.closed = true
      defer { state.acceptor = nil }
      return state.acceptor
    }
    acceptor?.resume(returning: nil)
  }
}
