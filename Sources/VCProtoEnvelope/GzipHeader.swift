import VCProtoCore
import VCProtoJSON

/// The bound on a gzip member's header (RFC 1952 section 2.3), checked before inflating.
///
/// A gzip header is 10 fixed bytes followed, as its FLG byte says, by FEXTRA (a 2-byte length and up to
/// 65,535 bytes), FNAME and FCOMMENT (each zero-terminated, of any length) and FHCRC (2 bytes). zlib
/// skips these fields without looking at them, so without a bound an envelope could make a receiver
/// scan 15 MB of file name, and those bytes would count as compressed input in the ratio check.
/// vcproto's senders write none of the optional fields.
enum GzipHeader {
  /// FLG bits (RFC 1952).
  private static let fhcrc: UInt8 = 0x02
  private static let fextra: UInt8 = 0x04
  private static let fname: UInt8 = 0x08
  private static let fcomment: UInt8 = 0x10

  /// Throws ``EnvelopeError/gzipHeaderTooLarge`` when the header at the start of `stream` is longer than
  /// `limit` bytes. Looks at no more than `limit + 1` bytes of it. A stream that is not a gzip member, or
  /// ends before its header does, passes: zlib then reports it (`envelope_corrupt`,
  /// `envelope_truncated`).
  static func check(_ stream: UnsafeBufferPointer<UInt8>, limit: Int) throws(EnvelopeError) {
    guard stream.count >= 10, stream[0] == 0x1F, stream[1] == 0x8B else { return }
    let flags = stream[3]
    var length = 10
    if flags & fextra != 0 {
      guard length + 2 <= stream.count else { return }
      length += 2 + (Int(stream[length]) | Int(stream[length + 1]) << 8)
      guard length <= limit else { throw .gzipHeaderTooLarge }
    }
    for field in [fname, fcomment] where flags & field != 0 {
      // Scan for the terminating zero, never past the limit.
      let end = min(stream.count, limit + 1)
      guard length < end else {
        if length > limit { throw .gzipHeaderTooLarge }
        return
      }
      guard let zero = stream[length..<end].firstIndex(of: 0) else {
        if end > limit { throw .gzipHeaderTooLarge }
        return
      }
      length = zero + 1
    }
    if flags & fhcrc != 0 { length += 2 }
    guard length <= limit else { throw .gzipHeaderTooLarge }
  }
}
