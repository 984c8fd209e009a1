import VCProtoJSON

/// A raw Claude Code JSONL record inside `session_history` / `session_updated`, kept losslessly.
///
/// The backend passes these records through (snake-casing only its own keys), so vcproto does not
/// force them into a struct: ``raw`` is the whole object, and the accessors read what clients use.
public struct ClaudeRecord: Sendable, Hashable, JSONFieldValue {
  /// The record exactly as received.
  public var raw: JSONObject

  /// Wraps a record object.
  public init(raw: JSONObject) {
    self.raw = raw
  }

  /// The record type, typically `user` or `assistant`.
  public var type: String? { raw["type"]?.stringValue }
  /// The record's UUID (used as `last_message_id` when subscribing).
  public var uuid: String? { raw["uuid"]?.stringValue }
  /// The record's ISO-8601 timestamp, as written.
  public var timestamp: String? { raw["timestamp"]?.stringValue }
  /// `message.role`: `user` or `assistant`.
  public var role: String? { raw["message"]?["role"]?.stringValue }
  /// `message.content`: a string, or an array of content blocks.
  public var content: JSONValue? { raw["message"]?["content"] }

  /// The plain text of the message: the content string, or its `text` blocks joined by newlines.
  public var text: String? {
    switch content {
    case .string(let s): return s
    case .array(let blocks):
      let texts = blocks.compactMap { block -> String? in
        guard block["type"]?.stringValue == "text" else { return nil }
        return block["text"]?.stringValue
      }
      return texts.isEmpty ? nil : texts.joined(separator: "\n")
    default: return nil
    }
  }

  /// The catalog shape a record must satisfy (`type` is required; the rest is typed when present).
  package static let shape = ProtocolCatalog.modelled.shapes["ClaudeRecord"]

  /// Writes the record unchanged.
  public func encodeField(to writer: inout JSONWriter) { writer.write(raw) }
}
