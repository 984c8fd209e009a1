import Foundation
import VCProtoCore
import VCProtoJSON

/// The state of a ``ClientHost``, isolated in one actor: the engine, the current transport and its
/// generation, the timers, and the callers waiting for answers. Every engine call and action is in
/// `ClientHostCore+Engine.swift`; this file holds what does not depend on the engine's API.
///
/// Work that waits (connecting, reading, writing, sleeping) runs in tasks that report back to the
/// actor tagged with what they belong to (a transport generation, a timer token); a report for
/// anything no longer current is ignored.
actor ClientHostCore {
  let url: URL
  let connector: any WebSocketConnector
  let clock: HostClock
  let capture: JSONLinesCapture?
  var engine: ClientEngine
  let events: HostEventBuffer<ClientApplicationEvent>

  /// The generation of the transport the engine is using or waiting for; bumped on every open and close.
  var generation = 0
  /// The engine's id of the transport it last asked for (``ClientAction/openTransport(_:)``): what the
  /// host's reports of the current generation name.
  var transport = TransportID(0)
  var link: HostTransportLink?
  var connecting: Task<Void, Never>?
  /// Writers of closed transports still sending their last messages, by generation
  /// (``stop(reason:)`` waits for them; each removes itself when done).
  var closing: [Int: Task<Void, Never>] = [:]
  var timers = HostTimers()
  var answers: [String: CheckedContinuation<ServerMessage, any Error>] = [:]
  var requests = 0
  /// The callers waiting for the connection to be ready: each with its id and, for a ``post(_:)``,
  /// the task that fails it at its deadline.
  var waitingForReady: [(id: Int, continuation: CheckedContinuation<Void, any Error>, deadline: Task<Void, Never>?)] =
    []
  var readyWaiters = 0
  /// How many ``post(_:)`` calls wait for the connection (at most the outbox's capacity).
  var waitingPosts = 0
  var stopped = false

  init(
    url: URL, configuration: ClientConfiguration, connector: any WebSocketConnector, clock: HostClock,
    capture: JSONLinesCapture?, events: HostEventBuffer<ClientApplicationEvent>
  ) {
    self.url = url
    self.connector = connector
    self.clock = clock
    self.capture = capture
    self.engine = ClientEngine(configuration)
    self.events = events
  }

  // MARK: Transport

  /// Opens a new transport (the engine asked); the previous one must be closed already.
  func openTransport() {
    generation += 1
    let generation = self.generation
    let connector = self.connector
    let url = self.url
    connecting?.cancel()
    connecting = Task {
      do {
        let transport = try await connector.connect(to: url)
        await self.opened(transport, generation: generation)
      } catch {
        self.connectFailed(error, generation: generation)
      }
    }
  }

  func opened(_ transport: any WebSocketTransport, generation: Int) async {
    guard generation == self.generation, !stopped else {
      await transport.close(code: .goingAway, reason: "not needed")
      return
    }
    connecting = nil
    let events = self.events
    link = HostTransportLink(
      transport: transport, generation: generation, captureConnection: capture?.newConnection() ?? 0,
      waitForRoom: { await events.waitForRoom(generation: generation) },
      received: { message in await self.received(message, generation: generation) },
      closed: { close in await self.transportClosed(close, generation: generation) })
    transportOpened()
  }

  private func connectFailed(_ error: any Error, generation: Int) {
    guard generation == self.generation, !stopped else { return }
    connecting = nil
    transportClosed(detail: "connect failed: \(error)")
  }

  func received(_ message: WebSocketMessage, generation: Int) {
    guard generation == self.generation, let link, !stopped else { return }
    capture?.record(message, connection: link.captureConnection, direction: .serverToClient)
    received(message)
  }

  func transportClosed(_ close: WebSocketClose, generation: Int) {
    guard generation == self.generation, let link, !stopped else { return }
    self.generation += 1
    retire(link, close)
    transportClosed(detail: "closed \(close)")
  }

  /// Sends `message` on the current transport (dropped when there is none).
  func write(_ message: WebSocketMessage) {
    guard let link else { return }
    capture?.record(message, connection: link.captureConnection, direction: .clientToServer)
    link.send(message)
  }

  /// Closes the current transport (or gives up the connect under way); nothing it reports later counts.
  func closeTransport(_ close: WebSocketClose) {
    generation += 1
    connecting?.cancel()
    connecting = nil
    if let link { retire(link, close) }
  }

  /// Closes `link` (after what it still has to send) and keeps its writer until it is done.
  private func retire(_ link: HostTransportLink, _ close: WebSocketClose) {
    self.link = nil
    link.close(close)
    events.release(through: link.generation)
    let writer = link.writer
    let generation = link.generation
    closing[generation] = Task {
      await writer.value
      self.closed(generation)
    }
  }

  private func closed(_ generation: Int) {
    closing[generation] = nil
  }

  // MARK: Timers

  func armTimer(_ timer: ConnectionTimer, at deadline: Int64) {
    timers.arm(timer, at: deadline, on: clock) { token in await self.timerDue(timer, token: token) }
  }

  func cancelTimer(_ timer: ConnectionTimer) {
    timers.cancel(timer)
  }

  private func timerDue(_ timer: ConnectionTimer, token: Int) {
    guard !stopped, timers.take(timer, token: token) else { return }
    timerFired(timer)
  }

  // MARK: Callers

  /// Returns once the engine is ready for requests; throws when the host stops or stops reconnecting,
  /// or, with a `deadline` (the host clock's milliseconds), ``RequestFailure/timeout`` when it passes.
  func waitUntilReady(deadline: Int64? = nil) async throws {
    if stopped { throw ClientHostError.stopped }
    if isReady { return }
    readyWaiters += 1
    let id = readyWaiters
    let clock = self.clock
    try await withCheckedThrowingContinuation { continuation in
      let timeout = deadline.map { deadline in
        Task {
          do { try await clock.sleep(deadline) } catch { return }
          self.readyDeadlinePassed(id)
        }
      }
      waitingForReady.append((id, continuation, timeout))
    }
  }

  /// A caller's deadline for the connection passed: it fails with ``RequestFailure/timeout``.
  private func readyDeadlinePassed(_ id: Int) {
    guard let index = waitingForReady.firstIndex(where: { $0.id == id }) else { return }
    waitingForReady.remove(at: index).continuation.resume(throwing: ClientHostError.requestFailed(.timeout))
  }

  func becameReady() {
    let waiting = waitingForReady
    waitingForReady = []
    for waiter in waiting {
      waiter.deadline?.cancel()
      waiter.continuation.resume()
    }
  }

  func failWaitingForReady(_ error: ClientHostError) {
    let waiting = waitingForReady
    waitingForReady = []
    for waiter in waiting {
      waiter.deadline?.cancel()
      waiter.continuation.resume(throwing: error)
    }
  }

  /// A fresh request id.
  func nextRequestId() -> String {
    requests += 1
    return "host-\(requests)"
  }

  func answer(_ requestId: String, with result: Result<ServerMessage, any Error>) {
    answers.removeValue(forKey: requestId)?.resume(with: result)
  }

  /// A caller stopped waiting: its answer, when it comes, is dropped.
  func abandon(_ requestId: String) {
    answer(requestId, with: .failure(CancellationError()))
  }

  func yield(_ event: ClientApplicationEvent) {
    events.yield(event)
  }

  // MARK: Stopping

  /// Stops for good: the engine says goodbye (`disconnect` when negotiated) and closes; every timer,
  /// connect and waiting caller ends; the event stream finishes. Returns once the transport is closed.
  func stop(reason: String) async {
    guard !stopped else { return }
    stopEngine(reason: reason)
    if link != nil { closeTransport(WebSocketClose(code: .normalClosure, reason: reason)) }
    stopped = true
    connecting?.cancel()
    connecting = nil
    timers.cancelAll()
    for (id, _) in answers { answer(id, with: .failure(ClientHostError.stopped)) }
    failWaitingForReady(.stopped)
    events.finish()
    let closing = self.closing.values
    for writer in closing { await writer.value }
  }
}
