import VCProtoJSON

/// Checks frames against a protocol catalog and reports every problem as a ``Finding``.
///
/// The validator and the decoder apply the same rules, stated once in the library: a frame decodes
/// with ``MessageDecoder`` exactly when the validator finds no error in it, and a decoding failure
/// carries the validator's findings.
public struct Validator: Sendable {
  /// The options in force.
  public var options: ValidationOptions
  /// The catalog of ``ValidationOptions/version``.
  public let catalog: ProtocolCatalog
  /// Where explicit log lines go (silent by default).
  public var logger: ProtocolLogger

  /// Creates a validator for the given options.
  public init(options: ValidationOptions, logger: ProtocolLogger = .silent) {
    self.options = options
    self.catalog = ProtocolCatalog.catalog(options.version)
    self.logger = logger
  }

  /// Parses and validates one frame given as bytes.
  public func validate(_ bytes: [UInt8]) -> ValidationReport {
    let parsed: JSONValue
    do {
      parsed = try JSONReader(limits: options.limits, knownKeys: .protocolNames).parse(bytes)
    } catch {
      return report(readError: error, frame: bytes)
    }
    return validate(parsed)
  }

  /// Parses and validates one frame given as text.
  public func validate(_ text: String) -> ValidationReport {
    validate(Array(text.utf8))
  }

  /// The report for a frame that is not acceptable JSON.
  package func report(readError error: JSONReadError, frame: [UInt8]) -> ValidationReport {
    let code = FindingCode(rawValue: error.kind.rawValue)
    let finding = Finding(.error, code, pointer: "", message: error.description, offset: error.offset)
    logger.logMalformed(finding, frame: frame)
    return ValidationReport(findings: [finding], messageType: nil, direction: options.direction, value: nil)
  }

  /// Validates an already-parsed frame.
  public func validate(_ value: JSONValue) -> ValidationReport {
    var state = ValidationState(strict: options.strict, maxFindings: options.maxFindings)
    let resolved = check(value, into: &state)
    let findings = state.finishedFindings()
    logger.log(findings: findings)
    return ValidationReport(
      findings: findings, messageType: resolved.type, direction: resolved.direction, value: value)
  }

  private func check(_ value: JSONValue, into state: inout ValidationState) -> (
    type: String?, direction: MessageDirection?
  ) {
    guard case .object(let object) = value else {
      state.add(.error, .notAnObject, "", nil, "frame is a JSON \(value.typeName), not an object")
      return (nil, options.direction)
    }
    guard let typeValue = object["type"] else {
      state.add(.error, .missingType, "/type", nil, "frame has no \"type\" member")
      return (nil, options.direction)
    }
    guard case .string(let type) = typeValue else {
      state.add(.error, .wrongType, "/type", nil, "\"type\" must be a string, not \(typeValue.typeName)")
      return (nil, options.direction)
    }
    guard let spec = catalog.message(type), spec.isModelled else {
      let versions = ProtocolCatalog.versions(ofType: type)
      if !versions.isEmpty {
        state.add(
          .error, .notInVersion, "/type", type,
          "\"\(type)\" is not part of protocol \(catalog.version); it exists in \(versions)")
      } else if catalog.message(type) != nil {
        state.add(
          .warning, .unknownType, "/type", type,
          "\"\(type)\" was listed in a review but never existed in the protocol")
      } else {
        state.add(.warning, .unknownType, "/type", type, "unknown message type \"\(Redaction.truncated(type))\"")
      }
      return (type, options.direction)
    }
    if let direction = options.direction, direction != spec.direction {
      state.add(
        .error, .wrongDirection, "/type", type,
        "\"\(type)\" is sent \(spec.direction.rawValue), but this frame travelled \(direction.rawValue)")
    }
    state.messageType = type
    if let negotiated = options.negotiatedCapabilities {
      for capability in spec.unnegotiatedCapabilities(in: object, negotiated: negotiated) {
        state.add(
          .error, .extensionNotNegotiated, capability.pointer, type,
          "\(capability.what) needs the capability \"\(capability.name)\", which the peers did not negotiate")
      }
    }
    state.protocolVersion = catalog.version
    ValueRules.checkMembers(
      object, fields: spec.fields, extra: .warn, owner: .message(type), skipping: "type", in: catalog, into: &state)
    checkRules(spec.rules, object, into: &state)
    checkHandshakeLists(object, spec, into: &state)
    checkHandshakeVersions(object, spec, into: &state)
    return (type, options.direction ?? spec.direction)
  }

  /// Reports each broken cross-member rule of a message (see ``FieldRule/violation(set:)``).
  private func checkRules(_ rules: [FieldRule], _ object: JSONObject, into state: inout ValidationState) {
    for rule in rules {
      if let violation = rule.violation(set: rule.memberSet(in: object)) { state.record(violation) }
    }
  }
}

/// One step of the path from the frame's root to the value being checked.
package enum PathComponent {
  case key(String)
  case index(Int)
}

/// Findings collected while one frame is validated, and the path to the current value.
///
/// At most `maxFindings` findings are kept; later ones are only counted (their pointer is never
/// built), and ``finishedFindings()`` ends the list with one `findings_suppressed` finding saying
/// how many were left out. It is an error when any of them was, so the verdict never changes.
package struct ValidationState {
  private(set) var findings: [Finding] = []
  package var messageType: String?
  /// The version of the catalog the frame is checked against (named in some findings).
  package var protocolVersion = ""
  package var path: [PathComponent] = []
  /// The member being checked when it is a scalar (appended to the pointer only for a finding).
  package var pendingKey: String?
  package let strict: Bool
  /// ``ValidationOptions/maxFindings``.
  package let maxFindings: Int
  /// Errors among ``findings``.
  private var errors = 0
  /// Findings left out once ``maxFindings`` were kept, and how many of them were errors.
  private var suppressed = 0
  private var suppressedErrors = 0

  package init(strict: Bool, maxFindings: Int) {
    self.strict = strict
    self.maxFindings = max(0, maxFindings)
  }

  /// `true` when an error was found, kept or suppressed.
  package var hasErrors: Bool { errors + suppressedErrors > 0 }

  /// Errors found, kept or suppressed.
  package var errorCount: Int { errors + suppressedErrors }

  /// `true` once ``maxFindings`` findings are kept: further ones are only counted.
  package var isFull: Bool { findings.count >= maxFindings }

  /// Counts a finding that is not kept.
  private mutating func suppress(_ severity: Severity) {
    suppressed += 1
    if severity == .error { suppressedErrors += 1 }
  }

  private mutating func keep(_ finding: Finding) {
    guard !isFull else { return suppress(finding.severity) }
    findings.append(finding)
    if finding.severity == .error { errors += 1 }
  }

  package mutating func add(
    _ severity: Severity, _ code: FindingCode, _ pointer: String, _ type: String?, _ message: String
  ) {
    let severity = strict ? .error : severity
    guard !isFull else { return suppress(severity) }
    keep(Finding(severity, code, pointer: pointer, messageType: type, message: message))
  }

  /// Takes over the findings of a trial run (a `oneOf` alternative), under the same cap.
  package mutating func absorb(_ trial: ValidationState) {
    for finding in trial.findings { keep(finding) }
    suppressed += trial.suppressed
    suppressedErrors += trial.suppressedErrors
  }

  /// The findings, ending with one `findings_suppressed` finding when some were left out.
  package func finishedFindings() -> [Finding] {
    guard suppressed > 0 else { return findings }
    let summary = Finding(
      suppressedErrors > 0 ? .error : .warning, .findingsSuppressed, pointer: "", messageType: messageType,
      message:
        "\(suppressed) more findings suppressed (\(suppressedErrors) errors, \(suppressed - suppressedErrors) "
        + "warnings): a frame reports at most \(maxFindings) (limit maxFindings)")
    return findings + [summary]
  }

  /// The JSON Pointer of the current path (built only when a finding needs it).
  package var pointer: String {
    var p = ""
    for c in path {
      switch c {
      case .key(let k): p = JSONPointer.appending(p, key: k)
      case .index(let i): p = JSONPointer.appending(p, index: i)
      }
    }
    if let pendingKey { p = JSONPointer.appending(p, key: pendingKey) }
    return p
  }

  /// Adds a finding at the member `key` of the current object.
  package mutating func add(_ severity: Severity, _ code: FindingCode, key: String, _ message: String) {
    guard !isFull else { return suppress(strict ? .error : severity) }
    let saved = pendingKey
    pendingKey = nil
    path.append(.key(key))
    add(severity, code, message)
    path.removeLast()
    pendingKey = saved
  }

  /// Adds a finding at the current path.
  package mutating func add(_ severity: Severity, _ code: FindingCode, _ message: String) {
    guard !isFull else { return suppress(strict ? .error : severity) }
    add(severity, code, pointer, messageType, message)
  }

}
