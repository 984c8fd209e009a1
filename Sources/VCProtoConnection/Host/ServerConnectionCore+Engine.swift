import VCProtoCore
import VCProtoJSON

/// Every call of ``ServerConnection`` into the ``ServerEngine`` and every action it performs: the
/// one file to change when the engine's API does.
extension ServerConnectionCore {
  private func feed(_ event: ServerEvent) {
    try? apply(event)
  }

  private func apply(_ event: ServerEvent) throws(IllegalEvent) {
    var actions = ServerActions(capacity: 4)
    try engine.handle(event, now: clock.now(), into: &actions)
    actions.drain { perform($0) }
  }

  private func perform(_ action: ServerAction) {
    switch action {
    case .send(let message): write(message)
    case .closeTransport(let reason): closeTransport(reason.webSocketClose)
    case .armTimer(let timer, let deadline): armTimer(timer, at: deadline)
    case .cancelTimer(let timer): cancelTimer(timer)
    case .deliver(let event):
      yield(event)
      if case .closed = event {
        finish()
        resumeClosedWaiters()
      }
    }
  }

  // MARK: From the transport and the timers

  func transportOpened() {
    let offersV2 = engine.configuration.offer.authVersions.contains(2)
    feed(.transportOpened(challenge: offersV2 ? Self.freshChallenge() : nil, connectionId: connectionId))
  }

  func transportClosed() {
    feed(.transportClosed)
  }

  /// Each message as it arrived: the engine opens, validates and decodes it (a violation reaches
  /// the application as ``ServerApplicationEvent/violation(_:)``).
  func received(_ message: WebSocketMessage) {
    feed(.received(message))
  }

  func timerFired(_ timer: ConnectionTimer) {
    feed(.timerFired(timer))
  }

  // MARK: From the application

  func send(_ message: ServerMessage) throws(ServerHostError) {
    if finished { throw .closed }
    do { try apply(.send(message)) } catch { throw .refused(error) }
  }

  func drain(retryAfterMs: Int, message: String) throws(ServerHostError) {
    if finished { throw .closed }
    do { try apply(.drain(retryAfterMs: retryAfterMs, message: message)) } catch { throw .refused(error) }
  }

  func close() {
    if finished { return }
    feed(.close)
    finish()
    resumeClosedWaiters()
  }

  /// 256 fresh bits from the system's secure random source, lowercase hex: an auth v2 challenge.
  private static func freshChallenge() -> String {
    var rng = SystemRandomNumberGenerator()
    return Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })
  }
}
