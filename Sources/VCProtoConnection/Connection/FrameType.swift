import VCProtoCore
import VCProtoJSON

/// The frame types the engines branch on for every received frame, recognised from the `type` string
/// once: a switch on its UTF-8 length, then at most three comparisons of representations and, only
/// when none matches, of bytes. (A chain of `String` `==`
/// costs an out-of-line, Unicode-aware comparison for every literal that does not match, on every
/// frame.) Types are matched by their exact bytes; for these lowercase ASCII names that is the same
/// as `==`, since no other sequence of scalars is canonically equivalent to one of them.
enum FrameType: Sendable, CaseIterable {
  // Server to client.
  case pong, heartbeat, draining, authError, sessionHistory, sessionUpdated, sessionReady, sessionCreated
  case turnComplete
  // Client to server.
  case ping, connect, subscribe, unsubscribe, messageAck, disconnect, prompt
  /// Any other type (or none): the engines pass such frames on.
  case other

  /// The type named `type`, or ``other``.
  init(_ type: String) {
    let length = type.utf8.count
    // Every name here fits a small string (up to 15 bytes, held in the `String` value itself), and one
    // text has one small representation: a parsed `type` equal to a name compares equal word by word,
    // without reading any byte. Only when none does (another type, or a name held in a buffer, as a
    // bridged string may be) are the bytes compared; never by `==`, whose slow path a difference
    // (a `pong` tried against `ping`) takes.
    self = Self.named(type, length, ByRepresentation.self) ?? Self.byBytes(type, length)
  }

  /// The type named `type` by its bytes (kept out of line: most frames never come here).
  @inline(never)
  private static func byBytes(_ type: String, _ length: Int) -> FrameType {
    named(type, length, ByBytes.self) ?? .other
  }

  /// The type of `type` (`length` UTF-8 bytes) by comparing representations, or bytes: the one table
  /// of names. ``other`` when no name has that length (whatever the comparison), `nil` when none of
  /// that length matches. (Generic over the comparison, so that each use is specialised: taking it as
  /// a closure or a flag measured about 17 instructions more a frame.)
  @inline(__always)
  private static func named<C: NameComparison>(_ type: String, _ length: Int, _: C.Type) -> FrameType? {
    @inline(__always) func matches(_ name: String) -> Bool { C.same(type, name) }
    switch length {
    case 4: return matches("ping") ? .ping : matches("pong") ? .pong : nil
    case 6: return matches("prompt") ? .prompt : nil
    case 7: return matches("connect") ? .connect : nil
    case 8: return matches("draining") ? .draining : nil
    case 9: return matches("heartbeat") ? .heartbeat : matches("subscribe") ? .subscribe : nil
    case 10: return matches("auth_error") ? .authError : matches("disconnect") ? .disconnect : nil
    case 11: return matches("message_ack") ? .messageAck : matches("unsubscribe") ? .unsubscribe : nil
    case 13: return matches("session_ready") ? .sessionReady : matches("turn_complete") ? .turnComplete : nil
    case 15:
      return matches("session_history")
        ? .sessionHistory
        : matches("session_updated") ? .sessionUpdated : matches("session_created") ? .sessionCreated : nil
    default: return .other
    }
  }
}
