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
    // Equal small strings decide by their representation; a different type of the same length (a
    // `pong` tried against `ping`) by its bytes, not by `==`, whose slow path a difference takes.
    @inline(__always) func it(_ name: String) -> Bool { type.hasSameScalars(as: name) }
    switch type.utf8.count {
    case 4: self = it("ping") ? .ping : it("pong") ? .pong : .other
    case 6: self = it("prompt") ? .prompt : .other
    case 7: self = it("connect") ? .connect : .other
    case 8: self = it("draining") ? .draining : .other
    case 9: self = it("heartbeat") ? .heartbeat : it("subscribe") ? .subscribe : .other
    case 10: self = it("auth_error") ? .authError : it("disconnect") ? .disconnect : .other
    case 11: self = it("message_ack") ? .messageAck : it("unsubscribe") ? .unsubscribe : .other
    case 13: self = it("session_ready") ? .sessionReady : it("turn_complete") ? .turnComplete : .other
    case 15:
      self =
        it("session_history")
        ? .sessionHistory : it("session_updated") ? .sessionUpdated : it("session_created") ? .sessionCreated : .other
    default: self = .other
    }
  }
}
