import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

extension JSONObject {
  /// The dedup position of a 0.2.0 record (``ClaudeRecord/raw``): ``PositionHash`` of its `uuid`
  /// string, read in place; `nil` when there is none. Nothing here is a call the compiler cannot see
  /// through while a member is borrowed: such a call makes it copy the record first, which is a
  /// reference count written to the record's storage (an atomic write, on a line that must first be
  /// fetched when the frame is not in the cache), once per record of every `session_history`.
  @inline(__always)
  var uuidPosition: Int? {
    for i in members.indices where members[i].key.hasSameScalars(asASCII: "uuid") {
      if case .string(let uuid) = members[i].value { return PositionHash.of(uuid) }
      return nil
    }
    return nil
  }
}
