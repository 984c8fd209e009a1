import VCProtoJSON

/// The validator's side of ``ValueRules``: each violation becomes a finding with its code, its JSON
/// Pointer and its message (the texts of STANDARDS.md#errors, which the vectors pin).
extension ValidationState: ValueRuleSink {
  package var isHalted: Bool { false }
  package var wantsWarnings: Bool { true }

  package mutating func record(_ violation: ValueViolation) {
    switch violation {
    case .missingMember(let name):
      add(.error, .missingField, key: name, "required member \"\(name)\" is missing")
    case .nullMember(let name):
      add(.error, .nullNotAllowed, key: name, "\"\(name)\" must not be null")
    case .undeclaredMember(let name, let owner):
      // Counted only, once the findings are full: the cross-version lookup and the message are work
      // per member that a frame of many undeclared members would otherwise pay for nothing.
      guard !isFull else { return add(.warning, .unexpectedField, key: name, "") }
      let versions = owner.versions(ofMember: name)
      // The pointer names the member exactly; the message quotes at most 60 characters of it, so a
      // huge attacker-chosen name is not printed twice.
      let shown = Redaction.truncated(name)
      let message =
        versions.isEmpty
        ? "member \"\(shown)\" is not part of the protocol (kept, but ignored by peers)"
        : "member \"\(shown)\" is not part of protocol \(protocolVersion); it belongs to \(versions) (kept, but ignored by peers)"
      add(.warning, .unexpectedField, key: name, message)
    case .nullElement:
      add(.error, .nullNotAllowed, "array elements must not be null")
    case .wrongType(let expected, let got):
      add(.error, .wrongType, "expected \(expected), got \(got)")
    case .badFormat(let s, let format, let secret):
      let shown = secret ? "the value" : "\"\(Redaction.truncated(s))\""
      add(.error, .invalidValue, "\(shown) is not a valid \(format.rawValue)")
    case .outOfRange(let literal):
      add(.error, .invalidValue, "\(Redaction.truncated(literal)) is outside the 64-bit integer range")
    case .belowMinimum(let value, let minimum):
      add(.error, .invalidValue, "\(value) is below the minimum \(minimum)")
    case .notFinite(let literal):
      add(.error, .invalidValue, "\(Redaction.truncated(literal)) is not a finite double")
    case .notAllowed(let value, let allowed, let member, let secret):
      if allowed.isEmpty {
        add(.error, .invalidValue, "\"\(member)\" must be null or absent in protocol \(protocolVersion)")
      } else {
        let shown = secret ? "the value" : Redaction.truncated(value.jsonText)
        add(.error, .invalidValue, "\(shown) is not one of " + allowed.map(\.jsonText).joined(separator: ", "))
      }
    }
  }

  /// Records a broken cross-member rule of the message: findings at the members it names, relative
  /// to the frame's root.
  package mutating func record(_ violation: FieldRuleViolation) {
    func quoted(_ names: [String], _ separator: String) -> String {
      names.map { "\"\($0)\"" }.joined(separator: separator)
    }
    func at(_ name: String) -> String { JSONPointer.appending("", key: name) }
    switch violation {
    case .mutuallyExclusive(let set):
      add(.error, .constraintViolation, at(set[1]), messageType, quoted(set, " and ") + " are mutually exclusive")
    case .noneOf(let names):
      add(
        .error, .missingField, at(names[0]), messageType,
        "required member \"\(names[0])\" is missing (or send " + quoted(Array(names.dropFirst()), ", ") + ")")
    case .severalOf(let set):
      add(.error, .constraintViolation, at(set[1]), messageType, "only one of " + quoted(set, ", ") + " may be sent")
    case .requires(let a, let b):
      add(.error, .constraintViolation, at(b), messageType, "\"\(a)\" requires \"\(b)\"")
    case .requiredWhen(let a, let value, let missing):
      for name in missing {
        add(
          .error, .missingField, at(name), messageType,
          "\"\(name)\" is required when \"\(a)\" is \(Redaction.truncated(value.jsonText))")
      }
    }
  }

  package mutating func enterMember(_ name: String, composite: Bool) {
    // The path grows only on the way into nested values; a scalar's key is added to the pointer only
    // when a finding is made (no work on the happy path).
    if composite { path.append(.key(name)) } else { pendingKey = name }
  }

  package mutating func leaveMember(composite: Bool) {
    if composite { path.removeLast() } else { pendingKey = nil }
  }

  package mutating func enterElement(_ index: Int) { path.append(.index(index)) }

  package mutating func leaveElement() { path.removeLast() }

  /// A trial may keep only the findings this state still has room for (``absorb(_:)`` would suppress
  /// the rest anyway), so that once the frame's findings are full a trial only counts: no pointer,
  /// message or lookup is made for findings that can never be shown, however many alternatives run.
  package func trial() -> ValidationState {
    var trial = ValidationState(strict: strict, maxFindings: maxFindings - findings.count)
    trial.messageType = messageType
    trial.protocolVersion = protocolVersion
    trial.path = path
    trial.pendingKey = pendingKey
    return trial
  }
}
