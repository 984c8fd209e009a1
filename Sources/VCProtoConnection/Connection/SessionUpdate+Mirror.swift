import VCProtoCore
import VCProtoJSON

extension SessionUpdate: CustomReflectable {
  /// The nine public members, in declaration order (what `print` and `dump` show), not the internal
  /// storage of five of them.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "sessionId": sessionId, "purge": purge as Any, "messages": messages, "insertIndices": insertIndices,
        "replaceIndices": replaceIndices, "cursor": cursor as Any, "isComplete": isComplete, "gap": gap as Any,
        "dropped": dropped,
      ], displayStyle: .struct)
  }
}
