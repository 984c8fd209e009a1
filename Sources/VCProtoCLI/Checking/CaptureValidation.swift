import VCProto

/// Validates one capture, streaming: reads a frame, checks it on its own, hands it to a
/// ``ConversationObserver`` for the conversation's rules, reports the findings, forgets the frame.
/// Memory does not grow with the capture. The rules are the library's; this type only reads, feeds
/// and reports.
///
/// Each connection is checked against the version its handshake gives
/// (``ConversationObserver/protocolVersion``); a new capture connection or a `hello` starts a new
/// one. The frame that changes the version (`hello`, `connect`, `connected`) is itself checked
/// against the new version.
struct CaptureValidation {
  /// How each frame is checked on its own.
  var checker: FrameChecker
  /// The version used when the capture has no handshake (`--protocol`, default 0.2.0).
  var defaultVersion: String
  /// Whether `--protocol` was given: it is then also the floor assumed for a negotiating server.
  var explicitVersion = false

  /// Runs over a reader; calls `emit` for each outcome (with conversation findings added).
  func run(
    _ reader: CaptureReader, progress: (Int, Int) -> Void = { _, _ in }, emit: (FrameOutcome) -> Void
  ) throws {
    var observer = ConversationObserver(fallbackVersion: defaultVersion, explicitVersion: explicitVersion)
    var connection: Int?
    var frames = 0
    while let frame = try reader.next() {
      if frame.connection != connection {
        if connection != nil { observer.startConnection() }
        connection = frame.connection
      }
      let before = observer.protocolVersion
      var outcome = checker.check(frame, protocolVersion: before, needsMessage: observer.isActive)
      if let message = outcome.message, let direction = outcome.direction {
        let observed = observer.observe(
          ConversationObserver.Frame(
            direction: direction, message: message, envelope: outcome.envelope,
            time: outcome.time.flatMap(Self.milliseconds)))
        if observer.protocolVersion != before, ProtocolCatalog.version(observer.protocolVersion) != nil {
          // The frame that set the version belongs to it: check it again against that version.
          outcome = checker.check(frame, protocolVersion: observer.protocolVersion, needsMessage: true)
        }
        outcome.findings += observed
      }
      if checker.strict {
        outcome.findings = outcome.findings.map { $0.with(severity: .error) }
      }
      frames += outcome.isFrame ? 1 : 0
      emit(outcome)
      progress(reader.bytesRead, frames)
    }
  }

  /// A capture's time in seconds as the observer's milliseconds; `nil` when it is not finite or
  /// beyond what 64 bits hold (about 292 million years).
  static func milliseconds(_ seconds: Double) -> Int64? {
    let value = (seconds * 1_000).rounded()
    guard value.isFinite, abs(value) < 9.0e18 else { return nil }
    return Int64(value)
  }
}
