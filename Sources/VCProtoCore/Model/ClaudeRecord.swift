import VCProtoJSON

/// A raw Claude Code JSONL record inside `session_history` / `session_updated`, kept losslessly.
///
/// The backend passes these records through (snake-casing only its own keys), so vcproto does not
/// force them into a struct: ``json`` is the whole record as its JSON text (``RawJSON``), checked
/// against the catalog's `ClaudeRecord` shape while the frame was decoded and parsed only when read
/// (``raw``, and the accessors that read what clients use). ``uuid`` is kept where the decoder found
/// it, for the engines' de-duplication. Records compare by JSON value.
public struct ClaudeRecord: Sendable, Hashable, JSONFieldValue {
  /// The record as received: one JSON object, as its text.
  public private(set) var json: RawJSON
  /// Where the record's `uuid` string is.
  @usableFromInline let uuidText: UUIDText

  /// Where a record's `uuid` string is: in its ``json`` (a decoded record's uuid without escapes:
  /// no `String` is made while decoding), or a String of its own.
  @usableFromInline enum UUIDText: Sendable {
    /// No `uuid` string.
    case absent
    /// The uuid's UTF-8, `count` bytes from `offset` in the record's text (between its quotes).
    case text(offset: Int, count: Int)
    /// The uuid.
    case string(String)
  }

  /// The record's UUID (used as `last_message_id` when subscribing); `nil` when absent. A decoded
  /// record makes the String from its JSON text on each read.
  public var uuid: String? {
    switch uuidText {
    case .absent: return nil
    case .string(let uuid): return uuid
    case .text(let offset, let count):
      return json.text.withUnsafeBufferPointer {
        String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<(offset + count)]), as: UTF8.self)
      }
    }
  }

  /// Lends the UTF-8 of ``uuid`` to `body` (for a decoded record, where it lies in the record's text:
  /// no String made); `nil` when there is none.
  @inlinable @inline(__always)
  package func withUUIDBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R? {
    switch uuidText {
    case .absent: return nil
    case .text(let offset, let count):
      return json.text.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + count)])) }
    case .string(var uuid): return uuid.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
  }

  /// The same record with a text of its own (``RawJSON/detached``): a record the decoder kept is part
  /// of its frame, and keeping it keeps the whole frame in memory; keep this one instead.
  public var detached: ClaudeRecord {
    var record = self
    record.json = json.detached
    return record
  }

  /// Wraps a record object.
  public init(raw: JSONObject) {
    json = RawJSON(.object(raw))
    uuidText = raw["uuid"]?.stringValue.map(UUIDText.string) ?? .absent
  }

  /// A record the decoder checked; `uuid` is its `uuid` member as the scan captured it.
  init(json: RawJSON, uuid: ScannedCapture?) {
    self.json = json
    switch uuid {
    case .text(let offset, let count)?: uuidText = .text(offset: offset, count: count)
    case .value(let value)?: uuidText = value.stringValue.map(UUIDText.string) ?? .absent
    case nil: uuidText = .absent
    }
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
