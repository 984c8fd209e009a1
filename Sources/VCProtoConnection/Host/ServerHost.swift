import Foundation
import VCProtoCore
import VCProtoJSON

/// A voice-code server, ready to use: it accepts connections from a ``WebSocketTransportListener``
/// and serves each with its own ``ServerEngine`` (a ``ServerConnection``), its timers on a `Clock`.
///
/// ```swift
/// let server = ServerHost(configuration: configuration, listener: listener)
/// await server.run { connection in
///   for await event in connection.events {
///     if case .request(.getAvailableRecipes) = event { try await connection.send(answer) }
///   }
/// }
/// ```
///
/// A `Sendable` final class; each connection's state lives in its own actor, so connections are
/// served concurrently.
///
/// **A client's memory survives its reconnects.** The host keeps each client's ``ServerMemory``
/// (the `message_ack` replay buffer and the `idempotent_prompt` keys) for the client's next
/// connection, as the engine's contract says (STANDARDS.md#what-survives): a prompt resent
/// with the same idempotency key after a reconnect is answered with `ack`, not run again, and
/// unacknowledged frames are replayed. A client is named by its `connect.session_id`
/// (``ClientConfiguration/sessionId``), compared by exact scalars; a client that names none starts
/// every connection empty. The newest authenticated connection of a client owns the memory (the
/// next one starts from it even while it is still open, as after a network failure the server has
/// not noticed yet). At most `rememberedClients` clients without an open connection are remembered
/// (``defaultRememberedClients``); past that, the one that connected least recently is forgotten.
/// Each costs at most ``ServerConfiguration/replayBufferBytes`` plus 1,024 keys of 256 bytes, so the
/// defaults bound the memory of clients gone to about 32 × 4.25 MiB.
public final class ServerHost: Sendable {
  private struct State {
    var next = 0
    var open: [Int: ServerConnection] = [:]
    var tasks: [Int: Task<Void, Never>] = [:]
  }

  private let configuration: ServerConfiguration
  private let listener: any WebSocketTransportListener
  private let clock: HostClock
  private let capture: JSONLinesCapture?
  private let eventBufferLimit: Int
  private let memories: ClientMemoryStore
  private let state = Locked(State())

  /// The default of `rememberedClients`: 32 clients without an open connection.
  public static let defaultRememberedClients = 32

  /// The default of `eventBufferLimit`: 64 events per connection (``ServerConnection/events``).
  public static let defaultEventBufferLimit = 64

  /// A server with `configuration`, serving what `listener` accepts, its timers on `clock`. With
  /// `capture`, every message of every connection both ways is written as a JSON Lines record.
  /// While `eventBufferLimit` events (at least 1) wait in a connection's ``ServerConnection/events``,
  /// that connection reads nothing more from its client. The memory of at most `rememberedClients`
  /// clients (at least 0) without an open connection is kept for their next connection.
  public init<C: Clock>(
    configuration: ServerConfiguration, listener: any WebSocketTransportListener, clock: C,
    capture: JSONLinesCapture? = nil, eventBufferLimit: Int = defaultEventBufferLimit,
    rememberedClients: Int = defaultRememberedClients
  ) where C.Duration == Duration {
    self.configuration = configuration
    self.listener = listener
    self.clock = HostClock(clock)
    self.capture = capture
    self.eventBufferLimit = eventBufferLimit
    self.memories = ClientMemoryStore(capacity: rememberedClients)
  }

  /// ``init(configuration:listener:clock:capture:eventBufferLimit:rememberedClients:)`` on the
  /// `ContinuousClock`.
  public convenience init(
    configuration: ServerConfiguration, listener: any WebSocketTransportListener, capture: JSONLinesCapture? = nil,
    eventBufferLimit: Int = defaultEventBufferLimit, rememberedClients: Int = defaultRememberedClients
  ) {
    self.init(
      configuration: configuration, listener: listener, clock: ContinuousClock(), capture: capture,
      eventBufferLimit: eventBufferLimit, rememberedClients: rememberedClients)
  }

  /// How many clients the host remembers now (with an open connection or not).
  var rememberedClientCount: Int { memories.count }

  /// Accepts connections until the listener closes (or ``stop()``), calling `serve` for each in its
  /// own task; when `serve` returns, the connection is closed. Returns once the listener is closed
  /// and every connection has ended.
  public func run(_ serve: @escaping @Sendable (ServerConnection) async -> Void) async {
    while let transport = await listener.accept() {
      let number = state.withLock { state in
        defer { state.next += 1 }
        return state.next
      }
      let connection = ServerConnection(
        configuration: configuration, clock: clock, capture: capture, id: "connection-\(number)",
        number: number, memories: memories, eventBufferLimit: eventBufferLimit)
      state.withLock { $0.open[number] = connection }
      await connection.core.open(transport)
      let task = Task {
        await serve(connection)
        await connection.close()
        self.ended(number)
      }
      state.withLock { state in
        if state.open[number] != nil { state.tasks[number] = task }
      }
    }
    let tasks = state.withLock { Array($0.tasks.values) }
    for task in tasks { await task.value }
  }

  private func ended(_ number: Int) {
    state.withLock { state in
      state.open[number] = nil
      state.tasks[number] = nil
    }
  }

  /// Stops accepting and closes every open connection; ``run(_:)`` then returns.
  public func stop() async {
    await listener.close()
    let open = state.withLock { Array($0.open.values) }
    for connection in open { await connection.close() }
  }
}
