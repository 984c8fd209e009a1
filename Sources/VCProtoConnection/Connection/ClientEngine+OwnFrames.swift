import VCProtoCore
import VCProtoJSON

/// The engine's `subscribe` and `unsubscribe` frames, written straight into
/// ``ClientEngine/ownFrameWriter``: the member names as fragments, only the ids escaped.
///
/// They are the bytes the generated encoder writes for the typed messages
/// (``ClientEngine/subscribeMessage(_:_:family:)``, `UnsubscribeMessage`), which have no other
/// members: a frame of each kind for every session an application opens and closes. Building the
/// typed messages, encoding them through `ClientMessage`'s dispatch and destroying them cost about
/// four hundred and fifty instructions more a session (callgrind, `vcproto-bench engine-profile
/// --protocol 0.2.0 --workload first-contact --only history`). The tests check the bytes against the
/// encoder's.
extension ClientEngine {
  /// Sends the `subscribe` for `id` asking for `request` (``Subscription/beginRequest(_:)``): `type`,
  /// `session_id`, then the resume member, if any, as ``subscribeMessage(_:_:family:)`` encodes it
  /// in every family (the request already says which member the family has).
  mutating func emitSubscribe(_ id: String, _ request: Subscription.Request, _ out: inout ClientActions) {
    ownFrameWriter.removeAll()
    ownFrameWriter.appendRaw(#"{"type":"subscribe","session_id":"#)
    ownFrameWriter.write(id)
    switch request {
    case .everything: break
    case .lastMessageId(let last):
      ownFrameWriter.appendRaw(#","last_message_id":"#)
      ownFrameWriter.write(last)
    case .lastSeq(let last):
      ownFrameWriter.appendRaw(#","last_seq":"#)
      last.encodeField(to: &ownFrameWriter)
    case .fromOffset(let from):
      ownFrameWriter.appendRaw(#","from_offset":"#)
      from.encodeField(to: &ownFrameWriter)
    }
    ownFrameWriter.endObject()
    emit(bytes: ownFrameWriter.bytes, &out)
  }

  /// Sends the `unsubscribe` for `id`: `type`, then `session_id`, as the encoder writes
  /// `UnsubscribeMessage(sessionId: id)`.
  mutating func emitUnsubscribe(_ id: String, _ out: inout ClientActions) {
    ownFrameWriter.removeAll()
    ownFrameWriter.appendRaw(#"{"type":"unsubscribe","session_id":"#)
    ownFrameWriter.write(id)
    ownFrameWriter.endObject()
    emit(bytes: ownFrameWriter.bytes, &out)
  }
}
