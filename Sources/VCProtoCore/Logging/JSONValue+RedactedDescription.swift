import VCProtoJSON

extension JSONValue: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The value as compact JSON text with secrets masked (``Redaction/redacted(_:)``: every secret
  /// member's value, and key-shaped text in strings and member names), so a host that prints a frame
  /// it sends or receives (a `connect`, a prompt quoting the key) never prints the key. Use
  /// ``jsonText`` for the exact text.
  public var description: String { Redaction.redacted(self).jsonText }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// For `dump` and debuggers: no children, so only ``debugDescription`` (secrets masked) is shown.
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension JSONObject: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The object as compact JSON text with secrets masked, like ``JSONValue/description``.
  public var description: String { JSONValue.object(self).description }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// For `dump` and debuggers: no children, so only ``debugDescription`` (secrets masked) is shown.
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}
