/// A history frame's session id as UTF-8 bytes, compared with each of its messages' `session_id`
/// (0.4.0 and 0.5.0 messages carry one): exact scalars, as ``SessionKey`` compares ids, with the
/// frame's bytes taken once per frame instead of once per message.
enum SessionBytes {
  /// Calls `body` with `id`'s UTF-8 bytes (in place for a native string; a copy otherwise).
  @inline(__always)
  static func with<Result>(_ id: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = id.utf8.withContiguousStorageIfAvailable(body) { return result }
    return Array(id.utf8).withUnsafeBufferPointer(body)
  }

  /// Whether `id` is exactly `session`'s bytes.
  @inline(__always)
  static func same(_ id: String, _ session: UnsafeBufferPointer<UInt8>) -> Bool {
    guard id.utf8.count == session.count else { return false }
    return with(id) { equal($0, session) }
  }

  /// Whether `a` and `b`, of the same length, hold the same bytes: eight at a time, then the rest
  /// one by one, in line (``UTF8Bytes/equal(_:_:)`` is a call into another module, which cost as
  /// much as the comparison itself for a 36-byte id).
  @inline(__always)
  static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = a.count
    guard count == b.count else { return false }
    guard count > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
    let ra = UnsafeRawPointer(pa)
    let rb = UnsafeRawPointer(pb)
    var offset = 0
    while offset + 8 <= count {
      guard
        ra.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          == rb.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      else { return false }
      offset += 8
    }
    while offset < count {
      guard pa[offset] == pb[offset] else { return false }
      offset += 1
    }
    return true
  }
}
