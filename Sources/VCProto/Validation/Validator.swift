/// Checks frames against a protocol catalog and reports every problem as a ``Finding``.
///
/// The validator and the decoder are one mechanism: ``MessageDecoder`` runs this validator and builds
/// the typed message only when there is no error finding, so the two can never disagree.
public struct Validator: Sendable {
  /// The options in force.
  public var options: ValidationOptions
  /// The catalog of ``ValidationOptions/protocolVersion`` (or `nil` when that version is unknown).
  public let catalog: ProtocolCatalog?
  /// Where explicit log lines go (silent by default).
  public var logger: ProtocolLogger

  /// Creates a validator for the given options.
  public init(options: ValidationOptions = ValidationOptions(), logger: ProtocolLogger = .silent) {
    self.options = options
    self.catalog = ProtocolCatalog.version(options.protocolVersion)
    self.logger = logger
  }

  /// Parses and validates one frame given as bytes.
  public func validate(_ bytes: [UInt8]) -> ValidationReport {
    let parsed: JSONValue
    do {
      parsed = try JSONReader(limits: options.limits).parse(bytes)
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
  func report(readError error: JSONReadError, frame: [UInt8]) -> ValidationReport {
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
    guard let catalog else {
      state.add(
        .error, .notInVersion, "", type, "protocol version \(options.protocolVersion) is not known to vcproto")
      return (type, options.direction)
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
        state.add(.warning, .unknownType, "/type", type, "unknown message type \"\(type)\"")
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
    checkMembers(
      object, fields: spec.fields, extra: .warn, owner: .message(type), skipping: "type", in: catalog, into: &state)
    checkRules(spec.rules, object, into: &state)
    checkHandshakeLists(object, spec, into: &state)
    checkHandshakeVersions(object, spec, into: &state)
    return (type, options.direction ?? spec.direction)
  }

  private func checkMembers(
    _ object: JSONObject, fields: [FieldSpec], extra: ShapeSpec.ExtraMembers, owner: MemberOwner,
    skipping: String?, in catalog: ProtocolCatalog, into state: inout ValidationState
  ) {
    var matched = 0
    // Canonical frames list members in catalog order (after `type`): look at the member after the last
    // one found before searching the whole object.
    var cursor = skipping.map { object.members.first?.key.hasSameScalars(as: $0) ?? false } ?? false ? 1 : 0
    func lookup(_ name: String) -> JSONValue? {
      if cursor < object.members.count, object.members[cursor].key.hasSameScalars(as: name) {
        cursor += 1
        return object.members[cursor - 1].value
      }
      return object[name]
    }
    for field in fields {
      guard let value = lookup(field.name) else {
        if field.required {
          state.add(.error, .missingField, key: field.name, "required member \"\(field.name)\" is missing")
        }
        continue
      }
      matched += 1
      if case .null = value {
        if !field.nullable { state.add(.error, .nullNotAllowed, key: field.name, "\"\(field.name)\" must not be null") }
        continue
      }
      // The path grows only on the way into nested values; a scalar's key is added to the pointer
      // only when a finding is made (no work on the happy path).
      let nested = field.type.isComposite
      if nested { state.path.append(.key(field.name)) } else { state.pendingKey = field.name }
      if checkValue(value, field.type, secret: field.secret, in: catalog, into: &state),
        let allowed = field.allowedValues, !allowed.contains(value)
      {
        let shown = field.secret ? "the value" : value.jsonText
        if allowed.isEmpty {
          state.add(
            .error, .invalidValue, "\"\(field.name)\" must be null or absent in protocol \(catalog.version)")
        } else {
          state.add(
            .error, .invalidValue, "\(shown) is not one of " + allowed.map(\.jsonText).joined(separator: ", "))
        }
      }
      if nested { state.path.removeLast() } else { state.pendingKey = nil }
    }
    let expected = matched + (skipping != nil && object[skipping!] != nil ? 1 : 0)
    if extra == .warn && expected < object.count {
      for member in object.members
      where !(skipping.map(member.key.hasSameScalars) ?? false)
        && !fields.contains(where: { $0.name.hasSameScalars(as: member.key) })
      {
        let versions = owner.versions(ofMember: member.key)
        let message =
          versions.isEmpty
          ? "member \"\(member.key)\" is not part of the protocol (kept, but ignored by peers)"
          : "member \"\(member.key)\" is not part of protocol \(catalog.version); it belongs to \(versions) (kept, but ignored by peers)"
        state.add(.warning, .unexpectedField, key: member.key, message)
      }
    }
  }

  /// Checks a non-null value against a type; returns `true` when the type matched (so value checks apply).
  @discardableResult
  private func checkValue(
    _ value: JSONValue, _ type: FieldType, secret: Bool, in catalog: ProtocolCatalog,
    into state: inout ValidationState
  ) -> Bool {
    switch type {
    case .any:
      return true
    case .string(let format):
      guard case .string(let s) = value else { return state.wrongType(expected: "string", value) }
      if format != .plain, !FormatCheck.matches(s, format) {
        let shown = secret ? "the value" : "\"\(Redaction.truncated(s))\""
        state.add(.error, .invalidValue, "\(shown) is not a valid \(format.rawValue)")
      }
      return true
    case .integer(let minimum):
      guard case .number(let n) = value else { return state.wrongType(expected: "integer", value) }
      guard n.isIntegerLiteral else { return state.wrongType(expected: "integer", value) }
      guard let v = n.int64Value else {
        state.add(.error, .invalidValue, "\(n.literal) is outside the 64-bit integer range")
        return true
      }
      if let minimum, v < minimum {
        state.add(.error, .invalidValue, "\(v) is below the minimum \(minimum)")
      }
      return true
    case .number:
      guard case .number(let n) = value else { return state.wrongType(expected: "number", value) }
      if n.doubleValue == nil {
        state.add(.error, .invalidValue, "\(n.literal) is not a finite double")
      }
      return true
    case .boolean:
      guard case .bool = value else { return state.wrongType(expected: "boolean", value) }
      return true
    case .shape(let name):
      guard case .object(let object) = value else { return state.wrongType(expected: "object", value) }
      guard let shape = catalog.shapes[name] else { return true }
      checkMembers(
        object, fields: shape.fields, extra: shape.extraMembers, owner: .shape(name), skipping: nil, in: catalog,
        into: &state)
      return true
    case .array(let element):
      guard case .array(let items) = value else { return state.wrongType(expected: "array", value) }
      for (i, item) in items.enumerated() {
        state.path.append(.index(i))
        defer { state.path.removeLast() }
        if case .null = item {
          state.add(.error, .nullNotAllowed, "array elements must not be null")
          continue
        }
        checkValue(item, element, secret: secret, in: catalog, into: &state)
      }
      return true
    case .oneOf(let alternatives):
      for alternative in alternatives {
        var trial = ValidationState(strict: state.strict, maxFindings: state.maxFindings)
        trial.messageType = state.messageType
        trial.path = state.path
        trial.pendingKey = state.pendingKey
        checkValue(value, alternative, secret: secret, in: catalog, into: &trial)
        if !trial.hasErrors {
          state.absorb(trial)
          return true
        }
      }
      return state.wrongType(expected: alternatives.map(\.jsonTypeName).joined(separator: " or "), value)
    }
  }

  private func checkRules(_ rules: [FieldRule], _ object: JSONObject, into state: inout ValidationState) {
    func isSet(_ name: String) -> Bool {
      if let v = object[name], !v.isNull { return true }
      return false
    }
    for rule in rules {
      switch rule {
      case .mutuallyExclusive(let names):
        let set = names.filter(isSet)
        if set.count > 1 {
          state.add(
            .error, .constraintViolation, JSONPointer.appending("", key: set[1]), state.messageType,
            set.map { "\"\($0)\"" }.joined(separator: " and ") + " are mutually exclusive")
        }
      case .exactlyOne(let names):
        let set = names.filter(isSet)
        if set.isEmpty {
          state.add(
            .error, .missingField, JSONPointer.appending("", key: names[0]), state.messageType,
            "required member \"\(names[0])\" is missing (or send "
              + names.dropFirst().map { "\"\($0)\"" }
              .joined(separator: ", ") + ")")
        } else if set.count > 1 {
          state.add(
            .error, .constraintViolation, JSONPointer.appending("", key: set[1]), state.messageType,
            "only one of " + set.map { "\"\($0)\"" }.joined(separator: ", ") + " may be sent")
        }
      case .requires(let a, let b):
        if isSet(a) && !isSet(b) {
          state.add(
            .error, .constraintViolation, JSONPointer.appending("", key: b), state.messageType,
            "\"\(a)\" requires \"\(b)\"")
        }
      case .requiredWhen(let a, let value, let names):
        guard object[a] == value else { continue }
        for name in names where !isSet(name) {
          state.add(
            .error, .missingField, JSONPointer.appending("", key: name), state.messageType,
            "\"\(name)\" is required when \"\(a)\" is \(value.jsonText)")
        }
      }
    }
  }
}

/// What declares the members being checked: a message type or a named shape.
enum MemberOwner {
  case message(String)
  case shape(String)

  /// The versions that declare the member `name` here (for a finding about an undeclared member).
  func versions(ofMember name: String) -> VersionSet {
    switch self {
    case .message(let type): return ProtocolCatalog.declaration.versions(ofMember: name, inMessage: type)
    case .shape(let shape): return ProtocolCatalog.declaration.versions(ofMember: name, inShape: shape)
    }
  }
}

/// One step of the path from the frame's root to the value being checked.
enum PathComponent {
  case key(String)
  case index(Int)
}

/// Findings collected while one frame is validated, and the path to the current value.
///
/// At most `maxFindings` findings are kept; later ones are only counted (their pointer is never
/// built), and ``finishedFindings()`` ends the list with one `findings_suppressed` finding saying
/// how many were left out. It is an error when any of them was, so the verdict never changes.
struct ValidationState {
  private(set) var findings: [Finding] = []
  var messageType: String?
  var path: [PathComponent] = []
  /// The member being checked when it is a scalar (appended to the pointer only for a finding).
  var pendingKey: String?
  let strict: Bool
  /// ``ValidationOptions/maxFindings``.
  let maxFindings: Int
  /// Errors among ``findings``.
  private var errors = 0
  /// Findings left out once ``maxFindings`` were kept, and how many of them were errors.
  private var suppressed = 0
  private var suppressedErrors = 0

  init(strict: Bool, maxFindings: Int) {
    self.strict = strict
    self.maxFindings = max(0, maxFindings)
  }

  /// `true` when an error was found, kept or suppressed.
  var hasErrors: Bool { errors + suppressedErrors > 0 }

  /// `true` once ``maxFindings`` findings are kept: further ones are only counted.
  var isFull: Bool { findings.count >= maxFindings }

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

  mutating func add(_ severity: Severity, _ code: FindingCode, _ pointer: String, _ type: String?, _ message: String) {
    let severity = strict ? .error : severity
    guard !isFull else { return suppress(severity) }
    keep(Finding(severity, code, pointer: pointer, messageType: type, message: message))
  }

  /// Takes over the findings of a trial run (a `oneOf` alternative), under the same cap.
  mutating func absorb(_ trial: ValidationState) {
    for finding in trial.findings { keep(finding) }
    suppressed += trial.suppressed
    suppressedErrors += trial.suppressedErrors
  }

  /// The findings, ending with one `findings_suppressed` finding when some were left out.
  func finishedFindings() -> [Finding] {
    guard suppressed > 0 else { return findings }
    let summary = Finding(
      suppressedErrors > 0 ? .error : .warning, .findingsSuppressed, pointer: "", messageType: messageType,
      message:
        "\(suppressed) more findings suppressed (\(suppressedErrors) errors, \(suppressed - suppressedErrors) "
        + "warnings): a frame reports at most \(maxFindings) (limit maxFindings)")
    return findings + [summary]
  }

  /// The JSON Pointer of the current path (built only when a finding needs it).
  var pointer: String {
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
  mutating func add(_ severity: Severity, _ code: FindingCode, key: String, _ message: String) {
    guard !isFull else { return suppress(strict ? .error : severity) }
    let saved = pendingKey
    pendingKey = nil
    path.append(.key(key))
    add(severity, code, message)
    path.removeLast()
    pendingKey = saved
  }

  /// Adds a finding at the current path.
  mutating func add(_ severity: Severity, _ code: FindingCode, _ message: String) {
    guard !isFull else { return suppress(strict ? .error : severity) }
    add(severity, code, pointer, messageType, message)
  }

  mutating func wrongType(expected: String, _ value: JSONValue) -> Bool {
    add(.error, .wrongType, "expected \(expected), got \(value.typeName)")
    return false
  }
}

extension FieldType {
  /// `true` for types whose values contain other values (objects, arrays, alternatives).
  var isComposite: Bool {
    switch self {
    case .shape, .array, .oneOf, .any: return true
    default: return false
    }
  }

  /// The JSON type name(s) a value of this type has.
  package var jsonTypeName: String {
    switch self {
    case .string: return "string"
    case .integer: return "integer"
    case .number: return "number"
    case .boolean: return "boolean"
    case .any: return "any"
    case .shape: return "object"
    case .array: return "array"
    case .oneOf(let types): return types.map(\.jsonTypeName).joined(separator: " or ")
    }
  }
}
