/// The state of one ``ServerConnection``, isolated in one actor: its engine, its transport and its
/// timers. Every engine call and action is in `ServerConnectionCore+Engine.swift`; this file holds
/// what does not depend on the engine's API.
actor ServerConnectionCore {
  let clock: HostClock
  let capture: JSONLinesCapture?
  let connectionId: String
  var engine: ServerEngine
  let events: HostEventBuffer<ServerApplicationEvent>
  var link: HostTransportLink?
  var timers: [ConnectionTimer: (token: Int, task: Task<Void, Never>)] = [:]
  var timerTokens = 0
  var finished = false
  /// Resumed once the transport is closed and written out.
  var closedWaiters: [CheckedContinuation<Void, Never>] = []
  var writer: Task<Void, Never>?

  init(
    configuration: ServerConfiguration, clock: HostClock, capture: JSONLinesCapture?, connectionId: String,
    events: HostEventBuffer<ServerApplicationEvent>
  ) {
    self.clock = clock
    self.capture = capture
    self.connectionId = connectionId
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

  private func receivedFromTransport(_ message: WebSocketMessage) {
    guard let link, !finished else { return }
    capture?.record(message, connection: link.captureConnection, direction: .clientToServer)
    received(message)
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
    link?.close(WebSocketClose(code: .normalClosure, reason: ""))
    for (_, armed) in timers { armed.task.cancel() }
    timers = [:]
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
    timers[timer]?.task.cancel()
    timerTokens += 1
    let token = timerTokens
    let clock = self.clock
    let task = Task {
      do { try await clock.sleep(deadline) } catch { return }
      self.timerDue(timer, token: token)
    }
    timers[timer] = (token, task)
  }

  func cancelTimer(_ timer: ConnectionTimer) {
    timers.removeValue(forKey: timer)?.task.cancel()
  }

  private func timerDue(_ timer: ConnectionTimer, token: Int) {
    guard let armed = timers[timer], armed.token == token, !finished else { return }
    timers[timer] = nil
    timerFired(timer)
  }

  func yield(_ event: ServerApplicationEvent) {
    events.yield(event)
  }
}
