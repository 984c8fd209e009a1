import VCProtoCore
import VCProtoJSON

extension ServerMessage {
  /// The session a frame of session data is about (`session_history`, `session_updated`), which the
  /// server engine sends only to a client subscribed to it (0.4.0 and later); `nil` for other types.
  var sessionDataId: String? {
    switch self {
    case .sessionHistory, .sessionUpdated: return sessionIdMember
    case .unknown(let object):
      guard let type = object["type"]?.stringValue, type == "session_history" || type == "session_updated" else {
        return nil
      }
      return sessionIdMember
    default: return nil
    }
  }

  /// What the replay buffer keeps of a frame carrying a `message_id` (`message_ack` extension): the
  /// id, the text (`text`, else `message`, else `error`, else empty) and the `session_id`. The types
  /// that declare a `message_id` (`response`, `error`, `replay`) and an unmodelled frame holding a
  /// string one; `nil` for every other frame.
  var replayFields: (messageId: String, text: String, sessionId: String?)? {
    switch self {
    case .response(.v0_2_0(let m)):
      guard let id = m.messageId else { return nil }
      return (id, m.text ?? m.error ?? "", m.sessionId)
    case .response(.v0_3_0(let m)):
      guard let id = m.messageId else { return nil }
      return (id, m.text ?? m.error ?? "", m.sessionId)
    case .error(let m):
      guard let id = m.messageId else { return nil }
      return (id, m.message, m.sessionId)
    case .replay(.v0_2_0(let m)): return (m.messageId, "", nil)
    case .replay(.v0_3_0(let m)): return (m.messageId, "", nil)
    case .unknown(let object):
      guard let id = object["message_id"]?.stringValue else { return nil }
      let text =
        object["text"]?.stringValue ?? object["message"]?.stringValue ?? object["error"]?.stringValue ?? ""
      return (id, text, object["session_id"]?.stringValue)
    default: return nil
    }
  }
}
