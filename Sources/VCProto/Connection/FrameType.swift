/// The frame types the engines branch on for every received frame, recognised from the `type` string
/// once: a switch on its UTF-8 length, then at most three byte comparisons. (A chain of `String` `==`
/// costs an out-of-line, Unicode-aware comparison for every literal that does not match, on every
/// frame.) Types are matched by their exact bytes; for these lowercase ASCII names that is the same
/// as `==`, since no other sequence of scalars is canonically equivalent to one of them.
enum FrameType: Sendable {
  // Server to client.
  case pong, heartbeat, draining, authError, sessionHistory, sessionUpdated, sessionReady, sessionCreated
  case turnComplete
  // Client to server.
  case ping, connect, subscribe, unsubscribe, messageAck, disconnect, prompt
  /// Any other type (or none): the engines pass such frames on.
  case other

  /// The type named `type`, or ``other``.
  init(_ type: String) {
    self = Self.byRepresentation(type) ?? Self.byBytes(type)
  }

  /// The type whose name is stored exactly as `type` is: every name here fits a small string (up to
  /// 15 bytes, held in the `String` value itself), and one text has one small representation, so a
  /// parsed `type` equal to a name compares equal word by word, without reading any byte. `nil` when
  /// none does (another type, or a name held in a buffer, as a bridged string may be).
  @inline(__always)
  private static func byRepresentation(_ type: String) -> FrameType? {
    func same(_ name: String) -> Bool { String.sameRepresentation(type, name) }
    switch type.utf8.count {
    case 4: return same("ping") ? .ping : same("pong") ? .pong : nil
    case 6: return same("prompt") ? .prompt : nil
    case 7: return same("connect") ? .connect : nil
    case 8: return same("draining") ? .draining : nil
    case 9: return same("heartbeat") ? .heartbeat : same("subscribe") ? .subscribe : nil
    case 10: return same("auth_error") ? .authError : same("disconnect") ? .disconnect : nil
    case 11: return same("message_ack") ? .messageAck : same("unsubscribe") ? .unsubscribe : nil
    case 13: return same("session_ready") ? .sessionReady : same("turn_complete") ? .turnComplete : nil
    case 15:
      return same("session_history")
        ? .sessionHistory
        : same("session_updated") ? .sessionUpdated : same("session_created") ? .sessionCreated : nil
    default: return .other
    }
  }

  /// The type named `type` by its bytes (what ``byRepresentation(_:)`` could not decide).
  @inline(never)
  private static func byBytes(_ type: String) -> FrameType {
    // A different type of the same length (a `pong` tried against `ping`) is told by its bytes, not by
    // `==`, whose slow path a difference takes.
    func it(_ name: String) -> Bool { type.hasSameScalars(as: name) }
    switch type.utf8.count {
    case 4: return it("ping") ? .ping : it("pong") ? .pong : .other
    case 6: return it("prompt") ? .prompt : .other
    case 7: return it("connect") ? .connect : .other
    case 8: return it("draining") ? .draining : .other
    case 9: return it("heartbeat") ? .heartbeat : it("subscribe") ? .subscribe : .other
    case 10: return it("auth_error") ? .authError : it("disconnect") ? .disconnect : .other
    case 11: return it("message_ack") ? .messageAck : it("unsubscribe") ? .unsubscribe : .other
    case 13: return it("session_ready") ? .sessionReady : it("turn_complete") ? .turnComplete : .other
    case 15:
      return it("session_history")
        ? .sessionHistory : it("session_updated") ? .sessionUpdated : it("session_created") ? .sessionCreated : .other
    default: return .other
    }
  }
}
