import VCProtoCore
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

  /// The history of `message`, `nil` for any other type. Each case builds the frame in one step
  /// from the payload's members (assigning members after a delegated initializer copied the whole
  /// frame, retaining its references, once per member set).
  init?(_ message: ServerMessage) {
    switch message {
    case .sessionHistory(.v0_2_0(let h)):
      self.init(
        sessionId: h.sessionId, messages: .v0_2_0(h.messages), newestMessageId: h.newestMessageId,
        isComplete: h.isComplete, fileSignature: Self.signature(in: h.additionalMembers))
    case .sessionHistory(.v0_3_0(let h)):
      self.init(
        sessionId: h.sessionId, messages: .v0_3_0(h.messages), newestMessageId: h.newestMessageId,
        isComplete: h.isComplete, fileSignature: Self.signature(in: h.additionalMembers))
    case .sessionHistory(.v0_4_0(let h)):
      self.init(
        sessionId: h.sessionId, messages: .v0_4_0(h.messages), isComplete: h.isComplete, gap: h.gap,
        lastSeq: h.lastSeq, nextSeq: h.nextSeq, fileSignature: Self.signature(in: h.additionalMembers))
    case .sessionHistory(.v0_5_0(let h)):
      self.init(
        sessionId: h.sessionId, messages: .v0_5_0(h.messages), fileSignature: h.fileSignature,
        fileReplaced: h.fileReplaced, nextOffset: h.nextOffset, endOfFile: h.endOfFile)
    case .sessionUpdated(.v0_2_0(let u)):
      self.init(
        sessionId: u.sessionId, messages: .v0_2_0(u.messages), fileSignature: Self.signature(in: u.additionalMembers))
    case .sessionUpdated(.v0_3_0(let u)):
      self.init(
        sessionId: u.sessionId, messages: .v0_3_0Updated(u.messages),
        fileSignature: Self.signature(in: u.additionalMembers))
    default: return nil
    }
  }

  init(
    sessionId: String, messages: SessionMessages, newestMessageId: String? = nil, isComplete: Bool? = nil,
    gap: HistoryGap? = nil, lastSeq: Int? = nil, nextSeq: Int? = nil, fileSignature: String? = nil,
    fileReplaced: Bool? = nil, nextOffset: Int? = nil, endOfFile: Bool? = nil
  ) {
    self.sessionId = sessionId
    self.messages = messages
    self.newestMessageId = newestMessageId
    self.isComplete = isComplete
    self.gap = gap
    self.lastSeq = lastSeq
    self.nextSeq = nextSeq
    self.fileSignature = fileSignature
    self.fileReplaced = fileReplaced
    self.nextOffset = nextOffset
    self.endOfFile = endOfFile
  }

  /// An undeclared `file_signature` string among a frame's other members (a frame of a version
  /// before 0.5.0 that carries one), else `nil`.
  private static func signature(in additional: JSONObject) -> String? {
    additional.isEmpty ? nil : additional["file_signature"]?.stringValue
  }
}
