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
      switch key.utf8.count {
      case 3: Self.take(&gap, index, key, "gap")
      case 8:
        if !Self.take(&messages, index, key, "messages"), !Self.take(&lastSeq, index, key, "last_seq") {
          Self.take(&nextSeq, index, key, "next_seq")
        }
      case 10: Self.take(&sessionId, index, key, "session_id")
      case 11:
        if !Self.take(&nextOffset, index, key, "next_offset"), !Self.take(&endOfFile, index, key, "end_of_file") {
          Self.take(&isComplete, index, key, "is_complete")
        }
      case 13: Self.take(&fileReplaced, index, key, "file_replaced")
      case 14: Self.take(&fileSignature, index, key, "file_signature")
      case 17: Self.take(&newestMessageId, index, key, "newest_message_id")
      default: continue
      }
    }
  }

  /// Records `index` for `name` when `key` is `name` (and no earlier member was); `true` when `key` is `name`.
  /// `key` has as many UTF-8 bytes as `name` (the caller's switch), so `==` is exact for this ASCII
  /// name (``String/hasSameScalars(asASCII:)``): it decides at once when they are equal, the common
  /// case (measured cheaper than comparing bytes, or first bytes, beforehand).
  @discardableResult
  @inline(__always)
  private static func take(_ slot: inout Int?, _ index: Int, _ key: String, _ name: String) -> Bool {
    assert(key.utf8.count == name.utf8.count && name.utf8.allSatisfy { $0 < 0x80 })
    guard key == name else { return false }
    if slot == nil { slot = index }
    return true
  }

  /// The value of the member at `index`, if any.
  subscript(_ index: Int?) -> JSONValue? {
    guard let index else { return nil }
    return frame.members[index].value
  }
}
