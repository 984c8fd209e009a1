import VCProto

/// What checking one captured frame produced.
struct FrameOutcome: Sendable {
  /// Where the frame is.
  var position: FramePosition
  /// The direction it travelled (from the capture, `--direction`, or inferred from its type).
  var direction: MessageDirection?
  /// Its `type`, when it has one.
  var messageType: String?
  /// Every finding: capture, envelope, frame and (added later) conversation level.
  var findings: [Finding]
  /// The parsed message (inside its envelope), when it is a JSON object.
  var message: JSONObject?
  /// The envelope form it arrived in, if compressed.
  var envelope: EnvelopeForm?
  /// The capture's time stamp.
  var time: Double?
  /// The capture connection.
  var connection: Int
  /// `false` for capture-level items that are not frames.
  var isFrame: Bool

  /// No error finding.
  var isValid: Bool { !findings.contains { $0.severity == .error } }
}

/// Checks one captured frame on its own: opens an envelope, then runs the ``Validator``.
struct FrameChecker: Sendable {
  /// `--direction`: overrides what the capture says.
  var directionOverride: MessageDirection?
  /// `--strict`.
  var strict: Bool
  /// How envelopes are opened.
  var opener: EnvelopeOpener

  func check(_ frame: CapturedFrame, protocolVersion: String) -> FrameOutcome {
    var outcome = FrameOutcome(
      position: frame.position, direction: directionOverride ?? frame.direction, messageType: nil,
      findings: frame.findings, message: nil, envelope: nil, time: frame.time, connection: frame.connection,
      isFrame: frame.isFrame)
    guard let payload = frame.payload else { return outcome }
    var bytes: [UInt8]
    switch payload {
    case .binary(let data):
      guard data.count >= 2, data[0] == UInt8(ascii: "V"), data[1] == UInt8(ascii: "C") else {
        outcome.findings.append(
          Finding(
            .error, .unexpectedBinaryFrame, pointer: "",
            message: "binary frame of \(data.count) bytes is not a compression envelope (messages travel as text)"))
        return outcome
      }
      outcome.envelope = .binary
      switch opener.open(.binary(data)) {
      case .success(let inner): bytes = inner
      case .failure(let failure):
        outcome.findings.append(
          Finding(.error, FindingCode(rawValue: failure.code), pointer: "", message: failure.message))
        return outcome
      }
    case .text(let data):
      bytes = data
      if let fields = textEnvelope(data) {
        outcome.envelope = .text
        outcome.messageType = "compressed"
        switch fields {
        case .malformed(let finding):
          outcome.findings.append(finding)
          return outcome
        case .fields(let input):
          switch opener.open(input) {
          case .success(let inner):
            bytes = inner
            outcome.messageType = nil
          case .failure(let failure):
            outcome.findings.append(
              Finding(.error, FindingCode(rawValue: failure.code), pointer: "", message: failure.message))
            return outcome
          }
        }
      }
    }
    let options = ValidationOptions(
      direction: outcome.direction, protocolVersion: protocolVersion, strict: strict)
    let report = Validator(options: options).validate(bytes)
    outcome.findings.append(contentsOf: report.findings)
    outcome.messageType = report.messageType
    outcome.direction = report.direction
    if case .object(let object)? = report.value {
      outcome.message = object
      if outcome.messageType == nil, let type = object["type"]?.stringValue { outcome.messageType = type }
    }
    return outcome
  }

  /// The fields of a text envelope, `nil` when the frame is not one.
  private func textEnvelope(_ data: [UInt8]) -> TextEnvelopeFields? {
    guard contains(data, Array("\"compressed\"".utf8)),
      case .object(let object)? = try? JSONReader().parse(data), object["type"]?.stringValue == "compressed"
    else { return nil }
    guard let encoding = object["encoding"]?.stringValue, let length = object["length"]?.intValue,
      let base64 = object["data"]?.stringValue
    else {
      return .malformed(
        Finding(
          .error, FindingCode(rawValue: "envelope_malformed"), pointer: "", messageType: "compressed",
          message: "text envelope needs \"encoding\" (string), \"length\" (integer) and \"data\" (base64 string)"))
    }
    return .fields(.text(encoding: encoding, length: length, data: base64))
  }

  private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    var i = 0
    while i <= haystack.count - needle.count {
      if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
      i += 1
    }
    return false
  }
}

/// A text envelope's fields, or why they are unusable.
private enum TextEnvelopeFields {
  case fields(EnvelopeOpener.Input)
  case malformed(Finding)
}
