import VCProtoJSON

/// A raw Claude Code JSONL record inside `session_history` / `session_updated`, kept losslessly.
///
/// The backend passes these records through (snake-casing only its own keys), so vcproto does not
/// force them into a struct: ``json`` is the whole record as its JSON text (``RawJSON``), checked
/// against the catalog's `ClaudeRecord` shape while the frame was decoded and parsed only when read
/// (``raw``, and the accessors that read what clients use). ``uuid`` is kept as decoded, for the
/// engines' de-duplication. Records compare by JSON value.
public struct ClaudeRecord: Sendable, Hashable, JSONFieldValue {
  /// The record as received: one JSON object, as its text.
  public private(set) var json: RawJSON
  /// The record's UUID (used as `last_message_id` when subscribing); `nil` when absent.
  public private(set) var uuid: String?

  /// Wraps a record object.
  public init(raw: JSONObject) {
    json = RawJSON(.object(raw))
    uuid = raw["uuid"]?.stringValue
  }

  /// A record the decoder checked; `uuid` is its `uuid` member's string.
  init(json: RawJSON, uuid: String?) {
    self.json = json
    self.uuid = uuid
  }

  /// The record as an object, parsed from ``json`` on each read (keep it to read several members);
  /// setting it writes the new record.
  public var raw: JSONObject {
    get { json.value.objectValue ?? JSONObject() }
    set { self = ClaudeRecord(raw: newValue) }
  }

  /// The record type, typically `user` or `assistant`.
  public var type: String? { raw["type"]?.stringValue }
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

  /// The same record: the same JSON value.
  public static func == (a: ClaudeRecord, b: ClaudeRecord) -> Bool { a.json == b.json }

  /// Hashes the record's JSON value.
  public func hash(into hasher: inout Hasher) { hasher.combine(json) }

  /// Writes the record unchanged.
  public func encodeField(to writer: inout JSONWriter) { writer.write(json) }
}
