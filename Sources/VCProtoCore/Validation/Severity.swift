import VCProtoJSON

/// How serious a finding is.
public enum Severity: String, Sendable, Hashable, Codable, Comparable {
  /// Worth knowing (an unknown type, an undeclared member); the frame still decodes.
  case warning
  /// The frame breaks the protocol; it does not decode into the typed model.
  case error

  /// `warning` < `error`.
  public static func < (lhs: Severity, rhs: Severity) -> Bool {
    lhs == .warning && rhs == .error
  }
}
