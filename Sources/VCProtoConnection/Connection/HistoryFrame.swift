import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// The members of a `session_history` (or 0.2.0/0.3.0 `session_updated`) that the client engine reads,
/// taken from the typed message (the engine holds no tree of a received frame). A member the
/// message's version does not have is `nil`; 0.5.0's `file_signature` is also taken from a frame of
/// another version that carries it as an undeclared member (a cursor kept from a 0.5.0 connection
/// takes the frame's signature all the same).
struct HistoryFrame {
  var sessionId: String
  /// The messages, typed as the version types them.
  var messages: SessionMessages
  /// 0.2.0/0.3.0 `session_history`.
  var newestMessageId: String?
  /// 0.2.0-0.4.0 `session_history`.
  var isComplete: Bool?
  /// 0.4.0.
  var gap: HistoryGap?
  var lastSeq: Int?
  var nextSeq: Int?
  /// 0.5.0.
  var fileSignature: String?
  var fileReplaced: Bool?
  var nextOffset: Int?
  var endOfFile: Bool?

  /// The history of `message`, `nil` for any other type.
  init?(_ message: ServerMessage) {
    switch message {
    case .sessionHistory(.v0_2_0(let h)):
      self.init(h.sessionId, .v0_2_0(h.messages), h.additionalMembers)
      newestMessageId = h.newestMessageId
      isComplete = h.isComplete
    case .sessionHistory(.v0_3_0(let h)):
      self.init(h.sessionId, .v0_3_0(h.messages), h.additionalMembers)
      newestMessageId = h.newestMessageId
      isComplete = h.isComplete
    case .sessionHistory(.v0_4_0(let h)):
      self.init(h.sessionId, .v0_4_0(h.messages), h.additionalMembers)
      isComplete = h.isComplete
      gap = h.gap
      lastSeq = h.lastSeq
      nextSeq = h.nextSeq
    case .sessionHistory(.v0_5_0(let h)):
      self.init(h.sessionId, .v0_5_0(h.messages), JSONObject())
      fileSignature = h.fileSignature
      fileReplaced = h.fileReplaced
      nextOffset = h.nextOffset
      endOfFile = h.endOfFile
    case .sessionUpdated(.v0_2_0(let u)): self.init(u.sessionId, .v0_2_0(u.messages), u.additionalMembers)
    case .sessionUpdated(.v0_3_0(let u)): self.init(u.sessionId, .v0_3_0Updated(u.messages), u.additionalMembers)
    default: return nil
    }
  }

  private init(_ sessionId: String, _ messages: SessionMessages, _ additional: JSONObject) {
    self.sessionId = sessionId
    self.messages = messages
    if !additional.isEmpty { fileSignature = additional["file_signature"]?.stringValue }
  }
}
