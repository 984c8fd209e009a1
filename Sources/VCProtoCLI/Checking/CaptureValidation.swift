import VCProto

/// Validates one capture, streaming: reads a frame, checks it on its own and in the conversation,
/// reports its findings, forgets it. Memory does not grow with the capture.
struct CaptureValidation {
  /// How each frame is checked on its own.
  var checker: FrameChecker
  /// The version used when the capture does not announce a known one (`--protocol`).
  var defaultVersion: String

  /// Runs over a reader; calls `emit` for each outcome (with conversation findings added).
  func run(
    _ reader: CaptureReader, progress: (Int, Int) -> Void = { _, _ in }, emit: (FrameOutcome) -> Void
  ) throws {
    var conversation = ConversationChecker(catalog: ProtocolCatalog.version(defaultVersion) ?? .latest)
    var version = defaultVersion
    var connection: Int?
    var announced: String?
    var frames = 0
    while let frame = try reader.next() {
      if frame.connection != connection {
        if connection != nil {
          conversation.reset()
          version = defaultVersion
          announced = nil
        }
        connection = frame.connection
      }
      var outcome = checker.check(frame, protocolVersion: version, needsMessage: conversation.isActive)
      if let message = outcome.message, let direction = outcome.direction {
        let event = ConversationChecker.Event(
          direction: direction, message: message, envelope: outcome.envelope, time: outcome.time)
        outcome.findings += conversation.receive(event)
        if let now = conversation.announcedVersion, now != announced {
          announced = now
          if let catalog = ProtocolCatalog.version(now) {
            version = now
            conversation.catalog = catalog
          } else {
            version = defaultVersion
            outcome.findings.append(
              Finding(
                .warning, .unknownProtocolVersion, pointer: "", messageType: outcome.messageType,
                message: "the capture announces protocol \(Redaction.redactedText(now)), which vcproto does not know; "
                  + "checking against \(defaultVersion)"))
          }
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
