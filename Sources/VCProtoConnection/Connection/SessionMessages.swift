import VCProtoCore
import VCProtoJSON

/// The messages of one history frame, as the connection's version types them: what a
/// ``SessionUpdate`` carries (never a JSON tree). One case per kind of `messages` array:
///
/// - 0.2.0 `session_history` and `session_updated`: raw Claude Code records (``ClaudeRecord``),
///   positioned by `uuid`;
/// - 0.3.0 `session_history`: canonical messages (``HistoryMessage``), by `uuid`;
/// - 0.3.0 `session_updated`: canonical messages or, for a just-created session, raw records;
/// - 0.4.0: ``HistoryMessageV0_4_0``, by `seq`;
/// - 0.5.0: ``HistoryMessageV0_5_0``, by `offset`.
public enum SessionMessages: Sendable, Hashable {
  /// 0.2.0: raw records.
  case v0_2_0([ClaudeRecord])
  /// 0.3.0 `session_history`: canonical messages.
  case v0_3_0([HistoryMessage])
  /// 0.3.0 `session_updated`: canonical messages or raw records.
  case v0_3_0Updated([HistoryMessageOrClaudeRecord])
  /// 0.4.0: messages with `seq`.
  case v0_4_0([HistoryMessageV0_4_0])
  /// 0.5.0: messages with `offset`.
  case v0_5_0([HistoryMessageV0_5_0])

  /// No message (of 0.5.0's kind; an empty list of any kind says the same).
  public static let none = SessionMessages.v0_5_0([])

  /// How many messages.
  public var count: Int {
    switch self {
    case .v0_2_0(let m): return m.count
    case .v0_3_0(let m): return m.count
    case .v0_3_0Updated(let m): return m.count
    case .v0_4_0(let m): return m.count
    case .v0_5_0(let m): return m.count
    }
  }

  /// Whether there is no message.
  public var isEmpty: Bool { count == 0 }

  /// The messages at `indices` (each within ``count``), in that order, of the same kind.
  public func selecting(_ indices: [Int]) -> SessionMessages {
    switch self {
    case .v0_2_0(let m): return .v0_2_0(indices.map { m[$0] })
    case .v0_3_0(let m): return .v0_3_0(indices.map { m[$0] })
    case .v0_3_0Updated(let m): return .v0_3_0Updated(indices.map { m[$0] })
    case .v0_4_0(let m): return .v0_4_0(indices.map { m[$0] })
    case .v0_5_0(let m): return .v0_5_0(indices.map { m[$0] })
    }
  }

  /// `self` followed by `other`; `nil` when they are of different kinds (and neither is empty).
  public func appending(_ other: SessionMessages) -> SessionMessages? {
    if other.isEmpty { return self }
    if isEmpty { return other }
    switch (self, other) {
    case (.v0_2_0(let a), .v0_2_0(let b)): return .v0_2_0(a + b)
    case (.v0_3_0(let a), .v0_3_0(let b)): return .v0_3_0(a + b)
    case (.v0_3_0Updated(let a), .v0_3_0Updated(let b)): return .v0_3_0Updated(a + b)
    case (.v0_4_0(let a), .v0_4_0(let b)): return .v0_4_0(a + b)
    case (.v0_5_0(let a), .v0_5_0(let b)): return .v0_5_0(a + b)
    default: return nil
    }
  }

  /// Each message as the JSON text ``MessageEncoder`` writes for it (for vectors and tools).
  public var encodedMessages: [[UInt8]] {
    func each<T>(_ items: [T], _ write: (T, inout JSONWriter) -> Void) -> [[UInt8]] {
      items.map { item in
        var writer = JSONWriter()
        write(item, &writer)
        return writer.bytes
      }
    }
    switch self {
    case .v0_2_0(let m): return each(m) { $0.encodeField(to: &$1) }
    case .v0_3_0(let m): return each(m) { $0.encode(to: &$1) }
    case .v0_3_0Updated(let m): return each(m) { $0.encodeField(to: &$1) }
    case .v0_4_0(let m): return each(m) { $0.encode(to: &$1) }
    case .v0_5_0(let m): return each(m) { $0.encode(to: &$1) }
    }
  }

  /// The messages of a history frame (`session_history`, or `session_updated`), `nil` for any other.
  init?(of message: ServerMessage) {
    switch message {
    case .sessionHistory(.v0_2_0(let h)): self = .v0_2_0(h.messages)
    case .sessionHistory(.v0_3_0(let h)): self = .v0_3_0(h.messages)
    case .sessionHistory(.v0_4_0(let h)): self = .v0_4_0(h.messages)
    case .sessionHistory(.v0_5_0(let h)): self = .v0_5_0(h.messages)
    case .sessionUpdated(.v0_2_0(let u)): self = .v0_2_0(u.messages)
    case .sessionUpdated(.v0_3_0(let u)): self = .v0_3_0Updated(u.messages)
    default: return nil
    }
  }
}

extension SessionMessages {
  /// The `uuid` of message `index` (0.2.0/0.3.0, whose messages are positioned by it); `nil` for a
  /// record without a string one, and for the later versions' messages.
  func uuid(at index: Int) -> String? {
    switch self {
    case .v0_2_0(let m): return m[index].uuid
    case .v0_3_0(let m): return m[index].uuid
    case .v0_3_0Updated(let m):
      switch m[index] {
      case .historyMessage(let message): return message.uuid
      case .claudeRecord(let record): return record.uuid
      }
    case .v0_4_0, .v0_5_0: return nil
    }
  }
}
