import VCProtoJSON

/// A frame that does not decode: the validator's findings (the same ones `validate` reports).
public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
  /// Every finding for the frame; at least one is an error.
  public var findings: [Finding]
  /// The frame's `type`, when known, bounded like ``Finding/messageType``: key-shaped text masked,
  /// at most ``Finding/maxMessageTypeLength`` Unicode scalars, a longer (unknown) type cut and marked
  /// with its length in UTF-8 bytes (`TTTT… (1000000 bytes)`), so logging a failure never logs a
  /// megabyte `type`.
  public var messageType: String?

  /// Creates a failure; `messageType` is masked and cut like ``Finding/messageType``.
  public init(findings: [Finding], messageType: String?) {
    self.findings = findings
    self.messageType = messageType.map(Finding.shownType)
  }

  /// The error findings, one per line (``Finding/description``: pointers cut at
  /// ``Finding/maxDescribedPointerLength`` scalars; at most ``ValidationOptions/maxFindings`` + 1).
  public var description: String {
    findings.filter { $0.severity == .error }.map(\.description).joined(separator: "\n")
  }
}
