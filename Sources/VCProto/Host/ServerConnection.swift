/// One client connection a ``ServerHost`` serves: a ``ServerEngine`` over one accepted transport.
/// The engine does the handshake, authentication, keepalive, `ping`, subscription checks and
/// replay; the application reads ``events`` and answers with ``send(_:)``.
///
/// A `Sendable` final class; its state lives in an internal actor.
public final class ServerConnection: Sendable {
  /// Everything the engine tells the application, in order: ``ServerApplicationEvent/authenticated(_:sessionId:recentSessionsLimit:)``
  /// (send the lists), ``ServerApplicationEvent/subscribe(sessionId:cursor:)`` (send the history),
  /// ``ServerApplicationEvent/request(_:)`` (answer it), ... and last ``ServerApplicationEvent/closed(_:)``,
  /// after which it finishes.
  public let events: AsyncStream<ServerApplicationEvent>
  /// The host's name for this connection (`connection-N`), sent as `connected.session_id` only on a
  /// 0.2.0 connection whose `connect` names none.
  public let id: String
  let core: ServerConnectionCore

  init(
    configuration: ServerConfiguration, clock: HostClock, capture: JSONLinesCapture?, id: String
  ) {
    let (events, continuation) = AsyncStream.makeStream(of: ServerApplicationEvent.self)
    self.events = events
    self.id = id
    core = ServerConnectionCore(
      configuration: configuration, clock: clock, capture: capture, connectionId: id, events: continuation)
  }

  /// Sends `message` to the client (only once it authenticated). Throws ``ServerHostError/refused(_:)``
  /// when the engine refuses it, ``ServerHostError/closed`` once the connection is closed.
  public func send(_ message: ServerMessage) async throws {
    try await core.send(message)
  }

  /// Tells the client the server is shutting down and to come back after `retryAfterMs`.
  public func drain(retryAfterMs: Int, message: String) async throws {
    try await core.drain(retryAfterMs: retryAfterMs, message: message)
  }

  /// Closes the connection; returns once the transport is closed.
  public func close() async {
    await core.close()
    await core.waitUntilClosed()
  }
}
