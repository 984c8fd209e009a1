import VCProtoCore
import VCProtoJSON

/// One client connection a ``ServerHost`` serves: a ``ServerEngine`` over one accepted transport.
/// The engine does the handshake, authentication, keepalive, `ping`, subscription checks and
/// replay; the application reads ``events`` and answers with ``send(_:)``.
///
/// A `Sendable` final class; its state lives in an internal actor.
public final class ServerConnection: Sendable {
  /// Everything the engine tells the application, in order: ``ServerApplicationEvent/authenticated(_:sessionId:recentSessionsLimit:)``
  /// (send the lists), ``ServerApplicationEvent/subscribe(sessionId:cursor:)`` (send the history),
  /// ``ServerApplicationEvent/request(_:)`` (answer it), ... and last ``ServerApplicationEvent/closed(_:)``,
  /// after which it finishes. One task iterates it; cancelling that task drops every later event.
  ///
  /// **Bounded, with backpressure.** What the application has not taken yet waits in a buffer of
  /// the host's `eventBufferLimit` events (``ServerHost/defaultEventBufferLimit``). While it is full,
  /// the connection stops reading its transport: a client that floods requests faster than the
  /// application serves them is slowed by TCP flow control and costs the server at most the limit
  /// plus the events of one message (and what the transport buffers within its own limits); nothing
  /// is dropped or reordered, so no request goes unanswered without the application knowing. The
  /// engine's timers and the application's sends go on meanwhile.
  public let events: AsyncStream<ServerApplicationEvent>
  /// The host's name for this connection (`connection-N`), sent as `connected.session_id` only on a
  /// 0.2.0 connection whose `connect` names none.
  public let id: String
  let core: ServerConnectionCore

  init(
    configuration: ServerConfiguration, clock: HostClock, capture: JSONLinesCapture?, id: String, number: Int,
    memories: ClientMemoryStore?, eventBufferLimit: Int
  ) {
    let buffer = HostEventBuffer<ServerApplicationEvent>(limit: eventBufferLimit)
    self.events = buffer.makeStream()
    self.id = id
    core = ServerConnectionCore(
      configuration: configuration, clock: clock, capture: capture, connectionId: id, number: number,
      memories: memories, events: buffer)
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
