import VCProtoJSON

extension ClaudeRecord: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `ClaudeRecord({...})`: the record's JSON with secret members and key-shaped text masked
  /// (``Redaction/redacted(_:)``). A record carries whatever the session held (tool output, pasted
  /// text), so its printed forms are redacted like a log line.
  public var description: String {
    "ClaudeRecord(\(Redaction.redacted(.object(raw)).jsonText))"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// For `dump` and debuggers: ``raw`` redacted.
  public var customMirror: Mirror {
    Mirror(
      self, children: ["raw": Redaction.redacted(.object(raw)).objectValue ?? JSONObject()], displayStyle: .struct)
  }
}
