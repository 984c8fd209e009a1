internal import CZlib
import VCProtoCore
import VCProtoJSON

/// A thin, bounded wrapper over zlib's inflate.
///
/// Output is written in chunks straight into the result buffer, and `avail_out` is never
/// allowed to exceed one byte past the tightest limit, so the limits are enforced while
/// inflating: no call can produce more than `limit + 1` bytes in total. The `z_stream` is
/// heap-allocated at a fixed address and `inflateEnd` runs on every path via `defer`.
enum Inflater {
  /// Output is produced in pieces of at most this many bytes.
  static let chunkSize = 256 * 1024

  /// Inflates exactly one complete `encoding` stream from `input`.
  ///
  /// - Parameters:
  ///   - input: the whole compressed stream; nothing may follow its end.
  ///   - declaredLength: the length announced by the envelope; output must match it.
  ///   - outputLimit: `maxInflatedSize`; output stops at `min(outputLimit, declaredLength)`.
  ///   - maxCompressionRatio: output may not exceed this times `input.count`.
  /// - Throws: `inflateLimit`, `ratioExceeded`, `lengthMismatch`, `truncated`, `corrupt`,
  ///   `trailingData`.
  static func inflate(
    _ input: UnsafeBufferPointer<UInt8>,
    encoding: EnvelopeEncoding,
    declaredLength: Int,
    outputLimit: Int,
    maxCompressionRatio: Int
  ) throws(EnvelopeError) -> [UInt8] {
    let lengthLimit = max(0, min(outputLimit, declaredLength))
    let (product, overflow) = input.count.multipliedReportingOverflow(
      by: max(0, maxCompressionRatio))
    let ratioBudget = overflow ? Int.max : product
    // Total output is never allowed past `stopAt + 1` bytes: one byte of excess is enough
    // to prove a limit is broken.
    let stopAt = min(lengthLimit, ratioBudget)

    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
      stream.deinitialize(count: 1)
      stream.deallocate()
    }
    let initStatus = vcproto_inflateInit2(stream, encoding.windowBits)
    // Only allocation failure or a header/library version mismatch can fail here.
    precondition(initStatus == Z_OK, "inflateInit2 failed with zlib status \(initStatus)")
    defer { inflateEnd(stream) }

    var failure: EnvelopeError?
    let output = [UInt8](unsafeUninitializedCapacity: stopAt + 1) { buffer, count in
      count = 0
      guard let base = buffer.baseAddress else {
        failure = .corrupt
        return
      }
      var fed = 0
      var produced = 0
      while true {
        if stream.pointee.avail_in == 0 && fed < input.count,
          let inputBase = input.baseAddress
        {
          let piece = min(input.count - fed, Int(UInt32.max))
          stream.pointee.next_in = UnsafeMutablePointer(mutating: inputBase + fed)
          stream.pointee.avail_in = UInt32(piece)
          fed += piece
        }
        let room = min(chunkSize, stopAt + 1 - produced)
        stream.pointee.next_out = base + produced
        stream.pointee.avail_out = UInt32(room)
        let status = CZlib.inflate(stream, Z_NO_FLUSH)
        produced += room - Int(stream.pointee.avail_out)
        count = produced
        if produced > ratioBudget {
          failure = .ratioExceeded
          return
        }
        if produced > lengthLimit {
          failure = .inflateLimit
          return
        }
        let inputExhausted = stream.pointee.avail_in == 0 && fed == input.count
        switch status {
        case Z_STREAM_END:
          if !inputExhausted {
            failure = .trailingData
          } else if produced != declaredLength {
            failure = .lengthMismatch
          }
          return
        case Z_OK:
          continue
        case Z_BUF_ERROR:
          // No progress was possible. Output room is always at least one byte here, so
          // zlib is starving for input: the stream was cut short.
          failure = inputExhausted ? .truncated : .corrupt
          return
        case Z_DATA_ERROR, Z_NEED_DICT:
          failure = .corrupt
          return
        default:
          // Z_MEM_ERROR or Z_STREAM_ERROR: allocation failure or misuse, not input.
          preconditionFailure("inflate failed with zlib status \(status)")
        }
      }
    }
    if let failure { throw failure }
    return output
  }
}
