/// A frame that does not decode: the validator's findings (the same ones `validate` reports).
public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
  /// Every finding for the frame; at least one is an error.
  public var findings: [Finding]
  /// The frame's `type`, when known.
  public var messageType: String?

  /// Creates a failure.
  public init(findings: [Finding], messageType: String?) {
    self.findings = findings
    self.messageType = messageType
  }

  /// The error findings, one per line.
  public var description: String {
    findings.filter { $0.severity == .error }.map(\.description).joined(separator: "\n")
  }
}
