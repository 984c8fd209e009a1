/// The members of a `session_history` (or 0.2.0/0.3.0 `session_updated`) frame that the client engine
/// reads, found in one pass over the frame instead of one walk per name (what the subscript costs).
/// Names are matched as the subscript matches them (exact Unicode scalars), and the first member of a
/// name wins, as with the subscript.
struct HistoryFrame {
  let frame: JSONObject
  /// Member indices of each name, when present.
  private(set) var sessionId: Int?
  private(set) var messages: Int?
  private(set) var fileSignature: Int?
  private(set) var fileReplaced: Int?
  private(set) var nextOffset: Int?
  private(set) var endOfFile: Int?
  private(set) var newestMessageId: Int?
  private(set) var isComplete: Int?
  private(set) var gap: Int?
  private(set) var lastSeq: Int?
  private(set) var nextSeq: Int?

  init(_ frame: JSONObject) {
    self.frame = frame
    for index in frame.members.indices {
      let key = frame.members[index].key
      // The length first (stored for native strings): most keys are ruled out without a comparison.
      let length = key.utf8.count
      if !record(index, key, length, ByRepresentation.self) { recordByBytes(index, key, length) }
    }
  }

  /// Records member `index` under its name when `key` (`length` UTF-8 bytes) is one of the names read
  /// here, compared by `C`; `false` when a name has that length but none matched. The one table of
  /// names: compared by representation first (the parser's keys are small strings), then by bytes.
  /// Exact for these ASCII names, as the subscript is: no other sequence of scalars of the same
  /// length is canonically equivalent to one of them.
  @inline(__always)
  private mutating func record<C: NameComparison>(_ index: Int, _ key: String, _ length: Int, _: C.Type) -> Bool {
    @inline(__always) func take(_ slot: inout Int?, _ name: String) -> Bool {
      guard C.same(key, name) else { return false }
      if slot == nil { slot = index }
      return true
    }
    switch length {
    case 3: return take(&gap, "gap")
    case 8: return take(&messages, "messages") || take(&lastSeq, "last_seq") || take(&nextSeq, "next_seq")
    case 10: return take(&sessionId, "session_id")
    case 11:
      return take(&nextOffset, "next_offset") || take(&endOfFile, "end_of_file") || take(&isComplete, "is_complete")
    case 13: return take(&fileReplaced, "file_replaced")
    case 14: return take(&fileSignature, "file_signature")
    case 17: return take(&newestMessageId, "newest_message_id")
    default: return true  // No name has this length.
    }
  }

  /// ``record(_:_:_:_:)`` by bytes, for a key no name matched by representation (a name held in a
  /// buffer, `newest_message_id`, or another key of a known length); out of line.
  @inline(never)
  private mutating func recordByBytes(_ index: Int, _ key: String, _ length: Int) {
    _ = record(index, key, length, ByBytes.self)
  }

  /// The value of the member at `index`, if any.
  subscript(_ index: Int?) -> JSONValue? {
    guard let index else { return nil }
    return frame.members[index].value
  }
}
