import VCProtoCore
import VCProtoJSON

/// Every call of ``ClientHost`` into the ``ClientEngine`` and every action it performs: the one
/// file to change when the engine's API does.
extension ClientHostCore {
  var isReady: Bool { engine.state == .ready }

  /// Feeds an event from a transport or a timer. One the engine's state does not take is dropped (a
  /// stale report the generation check did not catch).
  private func feed(_ event: ClientEvent) {
    try? apply(event)
  }

  /// Feeds `event` at the clock's now and performs the actions.
  private func apply(_ event: ClientEvent) throws(IllegalEvent) {
    var actions = ClientActions(capacity: 4)
    try engine.handle(event, now: clock.now(), into: &actions)
    actions.drain { perform($0) }
  }

  private func perform(_ action: ClientAction) {
    switch action {
    case .openTransport(let id):
      transport = id
      openTransport()
    case .send(let message): write(message)
    case .closeTransport(_, let reason): closeTransport(reason.webSocketClose)
    case .armTimer(let timer, let deadline): armTimer(timer, at: deadline)
    case .cancelTimer(let timer): cancelTimer(timer)
    case .deliver(let event): deliver(event)
    }
  }

  private func deliver(_ event: ClientApplicationEvent) {
    switch event {
    case .answered(let requestId, let message):
      answer(requestId, with: .success(message))
    case .requestFailed(let requestId, let reason):
      answer(requestId, with: .failure(ClientHostError.requestFailed(reason)))
    case .connected:
      yield(event)
      becameReady()
    case .reauthRequired(let reason):
      yield(event)
      failWaitingForReady(.notConnected(reason: reason.code))
    case .upgradeRequired:
      yield(event)
      failWaitingForReady(.notConnected(reason: ClientState.upgradeRequired.rawValue))
    case .gaveUp:
      yield(event)
      failWaitingForReady(.notConnected(reason: "gave_up"))
    default:
      yield(event)
    }
  }

  // MARK: From the transport and the timers

  func transportOpened() {
    feed(.transportOpened(transport, clientNonce: AuthClient.freshNonce()))
  }

  func transportClosed(detail: String) {
    feed(.transportClosed(transport, detail: detail))
  }

  func received(_ message: WebSocketMessage) {
    feed(.received(message))
  }

  func timerFired(_ timer: ConnectionTimer) {
    feed(.timerFired(timer))
  }

  func stopEngine(reason: String) {
    feed(.stop(reason: reason))
  }

  // MARK: From the application

  func start() throws(ClientHostError) {
    if stopped { throw .stopped }
    do { try apply(.start) } catch { throw .refused(error) }
  }

  func resume() throws(ClientHostError) {
    if stopped { throw .stopped }
    do { try apply(.resume) } catch { throw .refused(error) }
  }

  func subscribe(sessionId: String, cursor: SubscriptionCursor?) throws(ClientHostError) {
    if stopped { throw .stopped }
    do { try apply(.subscribe(sessionId: sessionId, cursor: cursor)) } catch { throw .refused(error) }
  }

  func unsubscribe(sessionId: String) throws(ClientHostError) {
    if stopped { throw .stopped }
    do { try apply(.unsubscribe(sessionId: sessionId)) } catch { throw .refused(error) }
  }

  func request(_ message: ClientMessage) async throws -> ServerMessage {
    let type = message.type
    guard ClientEngine.answerTypes[type] != nil else { throw ClientHostError.noAnswer(type: type) }
    if stopped { throw ClientHostError.stopped }
    // Connecting, handshaking or backing off, the engine's outbox holds the request until the
    // connection is ready (bounded, with its timeout); parked until the application acts, it waits here.
    while !engine.acceptsRequests { try await waitUntilReady() }
    let requestId = nextRequestId()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        answers[requestId] = continuation
        do throws(IllegalEvent) {
          try apply(.send(message, requestId: requestId))
        } catch {
          answer(requestId, with: .failure(ClientHostError.refused(error)))
        }
      }
    } onCancel: {
      Task { await self.abandon(requestId) }
    }
  }

  /// Sends `message` once the connection is ready. While it is not, the call waits here (the
  /// engine's outbox holds only requests it answers by id), bounded like the outbox: at most
  /// ``ClientConfiguration/outboxCapacity`` posts wait (one more fails at once with
  /// ``RequestFailure/outboxFull``), each until its request timeout from the call
  /// (``RequestFailure/timeout``).
  func post(_ message: ClientMessage) async throws {
    if stopped { throw ClientHostError.stopped }
    if !isReady {
      guard waitingPosts < engine.configuration.outboxCapacity else {
        throw ClientHostError.requestFailed(.outboxFull)
      }
      waitingPosts += 1
      defer { waitingPosts -= 1 }
      let deadline = clock.now().addingSaturating(engine.requestTimeout(message.type))
      while !isReady { try await waitUntilReady(deadline: deadline) }
    }
    do throws(IllegalEvent) {
      try apply(.send(message, requestId: nil))
    } catch {
      throw ClientHostError.refused(error)
    }
  }
}
