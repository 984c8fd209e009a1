import VCProtoJSON

/// A history frame's session id as UTF-8 bytes, compared with each of its messages' `session_id`
/// (0.4.0 and 0.5.0 messages carry one): exact scalars, as ``SessionKey`` compares ids, with the
/// frame's bytes taken once per frame instead of once per message.
enum SessionBytes {
  /// Calls `body` with `id`'s UTF-8 bytes (in place for a native string; a copy otherwise, out of
  /// line: the bridged strings that need it never come from the decoder).
  @inline(__always)
  static func with<Result>(_ id: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = id.utf8.withContiguousStorageIfAvailable(body) { return result }
    return withCopy(id, body)
  }

  /// ``with(_:_:)`` over a copy of `id`'s bytes.
  @inline(never)
  static func withCopy<Result>(_ id: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    Array(id.utf8).withUnsafeBufferPointer(body)
  }

  /// Whether `id` is exactly `session`'s bytes. A uuid's 36 bytes (every real id; a 0.4.0/0.5.0
  /// history compares each message's) in straight code, any other length through the loop.
  @inline(__always)
  static func same(_ id: String, _ session: UnsafeBufferPointer<UInt8>) -> Bool {
    guard id.utf8.count == session.count else { return false }
    return with(id) { $0.count == 36 ? equal36($0, session) : UTF8Bytes.equal($0, session) }
  }

  /// Whether the 36 bytes of `a` and of `b` are the same: four words and four bytes, unrolled.
  @inline(__always)
  static func equal36(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    let (a, b) = (UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b))
    var differ: UInt64 = 0
    for offset in stride(from: 0, to: 32, by: 8) {
      differ |=
        a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    let last =
      a.loadUnaligned(fromByteOffset: 32, as: UInt32.self) ^ b.loadUnaligned(fromByteOffset: 32, as: UInt32.self)
    return differ | UInt64(last) == 0
  }
}
