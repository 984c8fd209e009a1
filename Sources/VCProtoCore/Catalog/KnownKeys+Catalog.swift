import VCProtoJSON

extension KnownKeys {
  /// Keys of Claude Code message content blocks and usage objects, which the catalog does not declare
  /// (raw records are passed through), but which fill `session_history` frames.
  static let contentBlockKeys = [
    "id", "name", "input", "text", "type", "tool_use_id", "content", "is_error", "thinking", "signature",
    "model", "usage", "stop_reason", "stop_sequence", "input_tokens", "output_tokens", "command", "description",
    "cache_creation_input_tokens", "cache_read_input_tokens", "userType", "version", "gitBranch", "requestId",
  ]

  /// Every member name the catalogs declare plus ``contentBlockKeys``: the table the protocol's
  /// readers parse frames with (the table changes speed, never results). A name quoted in an error
  /// is masked where key-shaped and cut (``Redaction/truncated(_:limit:)``).
  package static let protocolNames: KnownKeys = {
    var names = Set(contentBlockKeys)
    for catalog in ProtocolCatalog.all {
      for message in catalog.messages { for f in message.fields { names.insert(f.name) } }
      for shape in catalog.shapes.values { for f in shape.fields { names.insert(f.name) } }
    }
    return KnownKeys(names: names, quote: { Redaction.truncated($0) })
  }()
}
