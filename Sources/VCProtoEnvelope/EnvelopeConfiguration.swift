import VCProtoCore
import VCProtoJSON

/// Sender-side settings for sealing frames into envelopes.
public struct EnvelopeConfiguration: Sendable, Hashable {
  /// Frames shorter than this many bytes are sent as plain JSON (default 1024).
  ///
  /// Below about 1 KiB the zlib header, trailer and envelope overhead eat most of the
  /// gain, and the CPU cost is not worth it. A frame of exactly `threshold` bytes is
  /// sealed.
  public var threshold: Int

  /// zlib compression level, 0 (store) through 9 (best); out-of-range values are
  /// clamped. Default 6.
  ///
  /// Measured on the benchmark corpus's 7,611 frames of 1 KB and more (64 MB, release
  /// build, CPU time; STANDARDS.md#compression, Benchmarks/RESULTS.md): level 6 compresses
  /// 4.58:1 at 67 MB/s; level 9 is only 0.3 % smaller at 1.28 times the time; level 3 is
  /// 6.9 % larger at 0.54 times the time; level 1 is 14.5 % larger (4.00:1) at 161 MB/s.
  /// Opening runs at about 450 MB/s whatever the level. A CPU-bound sender may choose 3.
  public var level: Int

  /// Stream format used when sealing (default `.zlib`, the smaller of the two framings).
  public var encoding: EnvelopeEncoding

  /// Creates a configuration; every parameter defaults to the protocol default.
  public init(threshold: Int = 1024, level: Int = 6, encoding: EnvelopeEncoding = .zlib) {
    self.threshold = threshold
    self.level = level
    self.encoding = encoding
  }

  /// The protocol defaults (threshold 1024, level 6, zlib).
  public static let `default` = EnvelopeConfiguration()

  /// `level` clamped into zlib's valid range.
  var effectiveLevel: Int32 { Int32(min(max(level, 0), 9)) }
}
