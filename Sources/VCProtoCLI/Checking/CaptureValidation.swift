import VCProto

/// Validates one capture, streaming: reads a frame, checks it on its own and in the conversation,
/// reports its findings, forgets it. Memory does not grow with the capture.
///
/// Each connection is checked against the version its handshake gives (``ConnectionVersion``); a new
/// capture connection or a `hello` starts a new one. The frame that changes the version (`hello`,
/// `connect`, `connected`) is itself checked against the new version.
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
    var handshake = ConnectionVersion(fallback: defaultVersion, explicit: explicitVersion)
    var conversation = ConversationChecker(catalog: ProtocolCatalog.version(defaultVersion) ?? .latest)
    var connection: Int?
    var frames = 0
    while let frame = try reader.next() {
      if frame.connection != connection {
        if connection != nil {
          conversation.reset()
          handshake.reset()
          conversation.catalog = ProtocolCatalog.version(handshake.version) ?? conversation.catalog
        }
        connection = frame.connection
      }
      let before = handshake.version
      var outcome = checker.check(frame, protocolVersion: before, needsMessage: conversation.isActive)
      if let message = outcome.message, let direction = outcome.direction {
        let handshakeFindings = handshake.receive(direction, message)
        if handshake.version != before, let catalog = ProtocolCatalog.version(handshake.version) {
          conversation.catalog = catalog
          // The frame that set the version belongs to it: check it again against that version.
          outcome = checker.check(frame, protocolVersion: handshake.version, needsMessage: true)
        }
        outcome.findings += handshakeFindings
        if let message = outcome.message, let direction = outcome.direction {
          let event = ConversationChecker.Event(
            direction: direction, message: message, envelope: outcome.envelope, time: outcome.time)
          outcome.findings += conversation.receive(event)
        }
      }
      if checker.strict {
        outcome.findings = outcome.findings.map { $0.with(severity: .error) }
      }
      frames += outcome.isFrame ? 1 : 0
      emit(outcome)
      progress(reader.bytesRead, frames)
    }
  }
}
