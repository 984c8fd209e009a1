import VCProtoCore

/// A history message that carries its own position and session: 0.4.0's (`seq`) and 0.5.0's
/// (`offset`), classified by one loop (``ClientEngine/classify(_:session:into:sub:)``).
protocol PositionedHistoryMessage {
  /// The message's position in its session: `seq` (0.4.0) or `offset` (0.5.0); negative is none.
  var position: Int { get }
  /// The session the message says it belongs to.
  var sessionId: String { get }
}

extension HistoryMessageV0_4_0: PositionedHistoryMessage {
  var position: Int { seq }
}

extension HistoryMessageV0_5_0: PositionedHistoryMessage {
  var position: Int { offset }
}
