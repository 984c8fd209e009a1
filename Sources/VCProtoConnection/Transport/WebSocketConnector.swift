import Foundation
import VCProtoCore
import VCProtoJSON

/// Opens client WebSocket connections: what `ClientHost` calls each time its engine asks for a
/// transport (the first connect and every reconnect).
///
/// ``connect(to:)`` returns an open connection (the upgrade done) or throws why none could be opened.
/// It should honour task cancellation: the host cancels a connect it gave up on (its connect
/// deadline passed, or the host stopped), and a conforming type then throws (`CancellationError`
/// or its own error) and releases what it opened. A connection returned after the host gave up is
/// closed by the host.
public protocol WebSocketConnector: Sendable {
  /// Opens a WebSocket to `url` (`ws://` or `wss://`, as the conforming type supports).
  func connect(to url: URL) async throws -> any WebSocketTransport
}
