import Foundation
import VCProtoCore
import VCProtoJSON

/// A voice-code client connection, ready to use: it runs a ``ClientEngine`` over a
/// ``WebSocketTransport`` with its timers on a `Clock`, and gives the application an async API.
///
/// ```swift
/// let client = await ClientHost.connect(to: url, configuration: configuration, connector: connector)
/// try await client.subscribe(sessionId: id, cursor: savedCursor)
/// for await event in client.events { ... }  // .connected, .sessionUpdate, .received, ...
/// ```
///
/// What it does for the application: opens a transport whenever the engine asks (the first connect
/// and every reconnect, with the engine's backoff), feeds the engine every message received and
/// every timer due, sends what the engine sends, and closes what it closes. Each transport has a
/// generation: a message, close or failed connect reported late by a transport the host already
/// replaced is ignored. Each transport gets a fresh client nonce (128 random bits) for auth v2.
///
/// A `Sendable` final class; its state lives in an internal actor, so every method may be called
/// from any task. Call ``stop(reason:)`` when done: it closes the connection and finishes ``events``.
public final class ClientHost: Sendable {
  /// Everything the engine tells the application, in order, except the answers and failures of
  /// requests made with ``send(_:)`` (those go to the caller). Finishes when the host stops. One
  /// task iterates it; cancelling that task drops every later event.
  ///
  /// **Bounded, with backpressure.** What the application has not taken yet waits in a buffer of
  /// `eventBufferLimit` events (``defaultEventBufferLimit``). While it is full, the host stops
  /// reading the transport: the server is slowed by TCP flow control, nothing is dropped or
  /// reordered, and memory stays bounded (at most the limit plus the events of one received message,
  /// of a timer or of the application's own call). This is the policy of swift-nio's
  /// `NIOAsyncChannel` and of `URLSession`'s async bytes: dropping events would leave holes in a
  /// session the application cannot see (its cursor moved on), and closing would turn a slow frame
  /// into a reconnect. The cost: answers to ``send(_:)`` arrive behind the events on the same
  /// connection, so iterate `events` in its own task while awaiting answers; an application that
  /// stops reading for longer than ``ClientTiming/pongTimeoutMs`` also leaves the `pong` unread, and
  /// the engine then takes the connection for dead and reconnects.
  public let events: AsyncStream<ClientApplicationEvent>
  /// The default of `eventBufferLimit`: 64 events.
  public static let defaultEventBufferLimit = 64
  let core: ClientHostCore

  private init(core: ClientHostCore, events: AsyncStream<ClientApplicationEvent>) {
    self.core = core
    self.events = events
  }

  /// Starts connecting to `url` with `configuration`, opening each transport with `connector`, its
  /// timers on `clock`; returns at once (``events`` reports ``ClientApplicationEvent/connected(version:capabilities:authVersion:)``).
  /// With `capture`, every message both ways is written as a JSON Lines record. While
  /// `eventBufferLimit` events (at least 1) wait in ``events``, the host reads nothing more from the
  /// server.
  public static func connect<C: Clock>(
    to url: URL, configuration: ClientConfiguration, connector: any WebSocketConnector, clock: C,
    capture: JSONLinesCapture? = nil, eventBufferLimit: Int = defaultEventBufferLimit
  ) async -> ClientHost where C.Duration == Duration {
    let buffer = HostEventBuffer<ClientApplicationEvent>(limit: eventBufferLimit)
    let core = ClientHostCore(
      url: url, configuration: configuration, connector: connector, clock: HostClock(clock), capture: capture,
      events: buffer)
    let host = ClientHost(core: core, events: buffer.makeStream())
    try? await core.start()
    return host
  }

  /// ``connect(to:configuration:connector:clock:capture:eventBufferLimit:)`` on the `ContinuousClock`.
  public static func connect(
    to url: URL, configuration: ClientConfiguration, connector: any WebSocketConnector,
    capture: JSONLinesCapture? = nil, eventBufferLimit: Int = defaultEventBufferLimit
  ) async -> ClientHost {
    await connect(
      to: url, configuration: configuration, connector: connector, clock: ContinuousClock(), capture: capture,
      eventBufferLimit: eventBufferLimit)
  }

  /// Sends `request` once the connection is ready and returns its answer (which may be a refusal
  /// such as `command_error`). While the client connects, handshakes or reconnects, the request
  /// waits in the engine's outbox (``ClientConfiguration/outboxCapacity``) and goes out, in order,
  /// once the connection is ready. Throws ``ClientHostError/requestFailed(_:)`` when it will never be
  /// answered (the connection dropped after it was sent, its timeout passed, the outbox was full,
  /// the host stopped, or the host stopped reconnecting while it was queued: ``RequestFailure``),
  /// ``ClientHostError/noAnswer(type:)`` for a type without an answer (use ``post(_:)``),
  /// ``ClientHostError/stopped`` when called after ``stop(reason:)``, or
  /// ``ClientHostError/notConnected(reason:)`` when, called while the host was not reconnecting by
  /// itself, it waited for ``restart()`` and the host stopped reconnecting again.
  /// Cancelling the calling task stops the waiting (the request may still have been sent).
  public func send(_ request: ClientMessage) async throws -> ServerMessage {
    try await core.request(request)
  }

  /// Sends `message` once the connection is ready, without waiting for anything in return (an answer,
  /// if its type has one, arrives on ``events`` as ``ClientApplicationEvent/received(_:)``).
  ///
  /// While the client connects, handshakes or reconnects, the call waits, bounded like the engine's
  /// outbox: at most ``ClientConfiguration/outboxCapacity`` posts wait at once, each for at most its
  /// request timeout (``ClientTiming/requestTimeoutMs``, or ``ClientTiming/slowRequestTimeoutMs`` for
  /// the slow types) from the call. Throws ``ClientHostError/requestFailed(_:)`` with
  /// ``RequestFailure/outboxFull`` when that many already wait, ``RequestFailure/timeout`` when the
  /// connection is not ready in time; ``ClientHostError/stopped`` when the host stops (before or while
  /// it waits); ``ClientHostError/notConnected(reason:)`` when the host stops reconnecting while it
  /// waits; ``ClientHostError/refused(_:)`` for a type the engine sends itself (`subscribe`, ...).
  public func post(_ message: ClientMessage) async throws {
    try await core.post(message)
  }

  /// Follows session `sessionId` from `cursor` (the position the application stored; `nil`: from
  /// the start), now and after every reconnect; its messages arrive as
  /// ``ClientApplicationEvent/sessionUpdate(_:)`` on ``events``.
  public func subscribe(sessionId: String, cursor: SubscriptionCursor? = nil) async throws {
    try await core.subscribe(sessionId: sessionId, cursor: cursor)
  }

  /// Stops following session `sessionId`.
  public func unsubscribe(sessionId: String) async throws {
    try await core.unsubscribe(sessionId: sessionId)
  }

  /// The app came to the foreground or the user asked: reconnect now if the connection is down.
  public func resume() async throws {
    try await core.resume()
  }

  /// Connects again after the host stopped reconnecting by itself (``ClientApplicationEvent/reauthRequired(_:)``,
  /// ``ClientApplicationEvent/upgradeRequired(required:)``, ``ClientApplicationEvent/gaveUp(attempts:)``),
  /// once the user acted.
  public func restart() async throws {
    try await core.start()
  }

  /// Closes the connection on purpose (sending `disconnect` when negotiated) and stops: every
  /// waiting call throws ``ClientHostError/stopped`` and ``events`` finishes. Returns once the
  /// transport is closed. Later calls do nothing.
  public func stop(reason: String = "client_disconnect") async {
    await core.stop(reason: reason)
  }
}
