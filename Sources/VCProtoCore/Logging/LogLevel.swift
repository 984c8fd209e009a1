import VCProtoJSON

/// The level of a log record.
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
  /// Detail for debugging a peer.
  case debug
  /// Normal but notable (an unknown type, first seen).
  case info
  /// A frame broke the protocol in a recoverable way (a missing field, malformed JSON).
  case warning
  /// Reserved for failures of the host's own use of the library.
  case error

  /// Orders by severity.
  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `debug`, `info`, `warning`, `error`.
  public var name: String { ["debug", "info", "warning", "error"][rawValue] }
}
