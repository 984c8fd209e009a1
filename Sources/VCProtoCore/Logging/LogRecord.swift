import VCProtoJSON

/// One explicit log line from vcproto. Its text never contains a secret value.
public struct LogRecord: Sendable, Hashable {
  /// The level.
  public var level: LogLevel
  /// The finding code behind the line, when there is one.
  public var code: FindingCode?
  /// The message type, when known.
  public var messageType: String?
  /// The JSON Pointer concerned, when there is one.
  public var pointer: String?
  /// The line itself, e.g. `session_list: missing field /sessions/2/last_modified`.
  public var message: String

  /// Creates a record.
  public init(
    level: LogLevel, code: FindingCode? = nil, messageType: String? = nil, pointer: String? = nil, message: String
  ) {
    self.level = level
    self.code = code
    self.messageType = messageType
    self.pointer = pointer
    self.message = message
  }
}
