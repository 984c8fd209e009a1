import VCProtoCore

extension ClaudeRecord {
  /// The dedup position of a 0.2.0 record: ``PositionHash`` of its ``uuid``'s bytes, where the decoder
  /// found them (the record's JSON is not parsed, no String is made); `nil` when there is none.
  @inline(__always)
  var uuidPosition: Int? {
    // A uuid's 36 bytes (every real one) in straight code, as `PositionHash.of(_:)` reads them.
    withUUIDBytes { Int(truncatingIfNeeded: $0.count == 36 ? PositionHash.hash36($0) : PositionHash.hash($0)) }
  }
}
