import VCProtoJSON

/// The validator's verdict on one frame: every finding, not just the first.
public struct ValidationReport: Sendable {
  /// All findings, in document order.
  public var findings: [Finding]
  /// The frame's `type`, when it has a string one: exact and whole, like ``value`` (neither masked nor
  /// cut; an unknown type can be as long as the frame). Log ``Finding/messageType`` instead, which
  /// is masked and bounded, or cut this with the same rule.
  public var messageType: String?
  /// The direction: the one given in the options, else the one the type implies.
  public var direction: MessageDirection?
  /// The parsed frame, when it was JSON.
  public var value: JSONValue?

  /// A report of these findings about a frame of this type and direction, holding `value` when it was
  /// parsed (the validator's own reports, and the envelope validation's).
  package init(findings: [Finding], messageType: String?, direction: MessageDirection?, value: JSONValue?) {
    self.findings = findings
    self.messageType = messageType
    self.direction = direction
    self.value = value
  }

  /// `true` when no finding is an error.
  public var isValid: Bool { !findings.contains { $0.severity == .error } }

  /// The error findings.
  public var errors: [Finding] { findings.filter { $0.severity == .error } }

  /// The warning findings.
  public var warnings: [Finding] { findings.filter { $0.severity == .warning } }
}
