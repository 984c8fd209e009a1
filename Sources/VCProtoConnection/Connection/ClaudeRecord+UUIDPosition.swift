import VCProtoCore

extension ClaudeRecord {
  /// The dedup position of a 0.2.0 record: ``PositionHash`` of its ``uuid``, kept as decoded (the
  /// record's JSON is not parsed); `nil` when there is none.
  @inline(__always)
  var uuidPosition: Int? {
    guard let uuid else { return nil }
    return PositionHash.of(uuid)
  }
}
