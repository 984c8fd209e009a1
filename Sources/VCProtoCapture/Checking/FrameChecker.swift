import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// What checking one captured frame produced.
package struct FrameOutcome: Sendable {
  /// Where the frame is.
  package var position: FramePosition
  /// The direction it travelled (from the capture, `--direction`, or inferred from its type).
  package var direction: MessageDirection?
  /// Its `type`, when it has one.
  package var messageType: String?
  /// Every finding: capture, envelope, frame and (added later) conversation level.
  package var findings: [Finding]
  /// The parsed message (inside its envelope), when it is a JSON object.
  package var message: JSONObject?
  /// The envelope form it arrived in, if compressed.
  package var envelope: EnvelopeForm?
  /// The capture's time stamp.
  package var time: Double?
  /// The capture connection.
  package var connection: Int
  /// Whether the capture names the connection (findings then name it too).
  var namesConnection = false
  /// `false` for capture-level items that are not frames.
  package var isFrame: Bool
  /// The version the frame was checked against and why (set by ``ConversationCheck``).
  var versionUse: VersionUse?
  /// The frame is a `hello` that started a new conversation on its capture connection (set by
  /// ``ConversationCheck``).
  var startsConversation = false

  /// No error finding.
  package var isValid: Bool { !findings.contains { $0.severity == .error } }
}

/// Checks one captured frame on its own: opens an envelope, then runs the ``Validator``.
package struct FrameChecker: Sendable {
  /// `--direction`: overrides what the capture says.
  package var directionOverride: MessageDirection?
  /// `--strict`.
  package var strict: Bool
  /// How envelopes are opened.
  package var opener: EnvelopeOpener

  /// Checks frames with these settings.
  package init(directionOverride: MessageDirection?, strict: Bool, opener: EnvelopeOpener) {
    self.directionOverride = directionOverride
    self.strict = strict
    self.opener = opener
  }

  /// Checks one frame. `needsMessage`: the caller needs the parsed object (the conversation observer is
  /// active, or the frame will be printed); otherwise a clean frame is settled by the direct decode
  /// path alone (``MessageDecoder/cleanFrame(_:)``: its verdict, no message kept), and only the rest
  /// goes to the validator.
  package func check(_ frame: CapturedFrame, protocolVersion: ProtocolVersion, needsMessage: Bool = true)
    -> FrameOutcome
  {
    var outcome = FrameOutcome(
      position: frame.position, direction: directionOverride ?? frame.direction, messageType: nil,
      findings: frame.findings, message: nil, envelope: nil, time: frame.time, connection: frame.connection,
      isFrame: frame.isFrame)
    outcome.namesConnection = frame.namesConnection
    guard let payload = frame.payload else { return outcome }
    let received: WebSocketMessage
    switch payload {
    case .binary(let data):
      guard data.count >= 2, data[0] == UInt8(ascii: "V"), data[1] == UInt8(ascii: "C") else {
        outcome.findings.append(
          Finding(
            .error, .unexpectedBinaryFrame, pointer: "",
            message: "binary frame of \(data.count) bytes is not a compression envelope (messages travel as text)"))
        return outcome
      }
      received = .binary(data)
    case .text(let data):
      received = .text(data)
    }
    let options = ValidationOptions(
      direction: outcome.direction, version: protocolVersion, strict: strict)
    // A clean frame has no finding; only a frame that starts the conversation matters to one not yet active.
    if !needsMessage, case .text(let data) = received,
      let clean = MessageDecoder(options: options).cleanFrame(data),
      !ConversationObserver.startsConversation(type: clean.type, direction: clean.direction)
    {
      outcome.messageType = clean.type
      outcome.direction = clean.direction
      return outcome
    }
    let validator = Validator(options: options)
    guard let codec = opener.codec else { return unsupported(received, validator, outcome) }
    let result = validator.validate(envelopedFrame: received, codec: codec)
    outcome.envelope = result.envelope
    record(result.report, in: &outcome)
    return outcome
  }

  private func record(_ report: ValidationReport, in outcome: inout FrameOutcome) {
    outcome.findings.append(contentsOf: report.findings)
    outcome.messageType = report.messageType
    outcome.direction = report.direction
    if case .object(let object)? = report.value {
      outcome.message = object
      if outcome.messageType == nil, let type = object["type"]?.stringValue { outcome.messageType = type }
    }
    // The type is printed (finding lines, the summary's per-type counts): a key-shaped one is masked.
    outcome.messageType = outcome.messageType.map(Redaction.redactedText)
  }

  /// Without an envelope codec: plain text frames are validated, every envelope is `envelope_unsupported`.
  private func unsupported(_ frame: WebSocketMessage, _ validator: Validator, _ outcome: FrameOutcome) -> FrameOutcome {
    var outcome = outcome
    outcome.envelope = .binary
    if case .text(let bytes) = frame {
      let report = validator.validate(bytes)
      guard let value = report.value, EnvelopeCodec.isTextEnvelope(value) else {
        outcome.envelope = nil
        record(report, in: &outcome)
        return outcome
      }
      outcome.envelope = .text
      outcome.messageType = "compressed"
    }
    outcome.findings.append(
      Finding(
        .error, .envelopeUnsupported, pointer: "", messageType: outcome.messageType,
        message: "compression envelopes are not supported by this build"))
    return outcome
  }
}
