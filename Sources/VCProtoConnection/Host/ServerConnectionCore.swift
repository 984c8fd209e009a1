import VCProtoCore
import VCProtoJSON

/// The state of one ``ServerConnection``, isolated in one actor: its engine, its transport and its
/// timers. Every engine call and action is in `ServerConnectionCore+Engine.swift`; this file holds
/// what does not depend on the engine's API.
actor ServerConnectionCore {
  let clock: HostClock
  let capture: JSONLinesCapture?
  let connectionId: String
  /// The host's number for this connection.
  let number: Int
  /// The host's memory of its clients (`nil`: nothing is carried between connections).
  let memories: ClientMemoryStore?
  /// The client this connection authenticated as, once it owns the client's memory.
  var client: ExactString?
  var engine: ServerEngine
  let events: HostEventBuffer<ServerApplicationEvent>
  var link: HostTransportLink?
  var timers = HostTimers()
  var finished = false
  /// Resumed once the transport is closed and written out.
  var closedWaiters: [CheckedContinuation<Void, Never>] = []
  var writer: Task<Void, Never>?

  init(
    configuration: ServerConfiguration, clock: HostClock, capture: JSONLinesCapture?, connectionId: String,
    number: Int, memories: ClientMemoryStore?, events: HostEventBuffer<ServerApplicationEvent>
  ) {
    self.clock = clock
    self.capture = capture
    self.connectionId = connectionId
    self.number = number
    self.memories = memories
    self.engine = ServerEngine(configuration)
    self.events = events
  }

  /// Starts serving `transport`.
  func open(_ transport: any WebSocketTransport) {
    let events = self.events
    let link = HostTransportLink(
      transport: transport, generation: 0, captureConnection: capture?.newConnection() ?? 0,
      waitForRoom: { await events.waitForRoom(generation: 0) },
      received: { message in await self.receivedFromTransport(message) },
      closed: { close in await self.transportClosed(close) })
    self.link = link
    writer = link.writer
    transportOpened()
  }

  private func receivedFromTransport(_ message: WebSocketMessage) async {
    guard let link, !finished else { return }
    capture?.record(message, connection: link.captureConnection, direction: .clientToServer)
    let client = await restoreMemory(before: message)
    guard !finished else { return }
    received(message)
    claimMemory(of: client)
  }

  private func transportClosed(_ close: WebSocketClose) {
    guard let link, !finished else { return }
    link.close(close)
    transportClosed()
    finish()
  }

  /// Sends `message` to the client.
  func write(_ message: WebSocketMessage) {
    guard let link, !finished else { return }
    capture?.record(message, connection: link.captureConnection, direction: .serverToClient)
    link.send(message)
  }

  /// Closes the transport after what was sent before.
  func closeTransport(_ close: WebSocketClose) {
    link?.close(close)
  }

  /// The engine delivered `.closed`: no event follows.
  func finish() {
    guard !finished else { return }
    finished = true
    releaseMemory()
    link?.close(WebSocketClose(code: .normalClosure, reason: ""))
    timers.cancelAll()
    events.finish()
  }

  /// Returns once the connection is closed and its transport released.
  func waitUntilClosed() async {
    if !finished {
      await withCheckedContinuation { closedWaiters.append($0) }
    }
    await writer?.value
  }

  func resumeClosedWaiters() {
    let waiters = closedWaiters
    closedWaiters = []
    for waiter in waiters { waiter.resume() }
  }

  // MARK: Timers

  func armTimer(_ timer: ConnectionTimer, at deadline: Int64) {
    timers.arm(timer, at: deadline, on: clock) { token in await self.timerDue(timer, token: token) }
  }

  func cancelTimer(_ timer: ConnectionTimer) {
    timers.cancel(timer)
  }

  private func timerDue(_ timer: ConnectionTimer, token: Int) {
    guard !finished, timers.take(timer, token: token) else { return }
    timerFired(timer)
  }

  func yield(_ event: ServerApplicationEvent) {
    events.yield(event)
  }
}
