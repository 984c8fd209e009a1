import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// One connection's checks: each frame on its own (``FrameChecker``) against the version the
/// conversation has reached, then the conversation's rules (``ConversationObserver``). What
/// `vcproto validate` runs for each connection of a capture and `vcproto-tap` for each live one.
package struct ConversationCheck: Sendable {
  /// How each frame is checked on its own.
  var checker: FrameChecker
  /// The conversation so far.
  var observer: ConversationObserver

  /// What checking the connection's next frame on its own depends on.
  var nextContext: FrameCheckContext {
    FrameCheckContext(version: observer.protocolVersion, needsMessage: observer.isActive)
  }

  /// Checks the connection's next frame; the outcome carries every finding (with `--strict`'s
  /// severities). `prechecked`: the frame's own check made ahead of time, used when it was made in
  /// the context the frame's turn has (``nextContext``), else the frame is checked again here.
  mutating func check(_ frame: CapturedFrame, prechecked: PrecheckedFrame? = nil) -> FrameOutcome {
    let before = observer.protocolVersion
    // A frame that says its connection (a JSON Lines `connection`, a HAR entry) is on that one: a
    // `hello` in it does not start another.
    if case .entry = frame.position { observer.helloStartsConnection = false }
    if frame.namesConnection { observer.helloStartsConnection = false }
    var outcome: FrameOutcome
    if let prechecked, prechecked.context == nextContext {
      outcome = prechecked.outcome
    } else {
      outcome = checker.check(frame, protocolVersion: before, needsMessage: observer.isActive)
    }
    // With authenticated frames in force, a well-formed wrapper is checked by what it carries (the
    // frame its receiver would handle); the observer still gets the wrapper, whose form it checks.
    let wrapper = observer.framesAuthenticated ? outcome.message : nil
    if let wrapper, let inner = try? AuthenticatedChannel.parts(of: wrapper).frame {
      var carried = frame
      carried.payload = .text(Array(inner.utf8))
      let envelope = outcome.envelope
      outcome = checker.check(carried, protocolVersion: before, needsMessage: true)
      outcome.envelope = envelope
    }
    var used = before
    if let message = wrapper ?? outcome.message, let direction = outcome.direction {
      let observed = observer.observe(
        ConversationObserver.Frame(
          direction: direction, message: message, envelope: outcome.envelope,
          time: outcome.time.flatMap(CaptureValidation.milliseconds)))
      if observer.protocolVersion != before {
        // The frame that set the version belongs to it: check it again against that version.
        outcome = checker.check(frame, protocolVersion: observer.protocolVersion, needsMessage: true)
        used = observer.protocolVersion
      }
      outcome.findings += observed
      outcome.startsConversation =
        direction == .serverToClient && message["type"]?.stringValue == "hello"
        && observer.clientState == .awaitingHello
    }
    if outcome.isFrame { outcome.versionUse = VersionUse(version: used, observer: observer) }
    if checker.strict {
      outcome.findings = outcome.findings.map { $0.with(severity: .error) }
    }
    return outcome
  }
}
