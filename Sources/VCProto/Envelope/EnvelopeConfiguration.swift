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
  /// Measured on realistic protocol JSON (release build, see STANDARDS-envelope.md): on a
  /// 30 KB `session_history` level 6 output is 3 % larger than level 9 in 68 % of its
  /// time, and 16 % smaller than level 1 at 3.6 times its (sub-millisecond) time.
  /// Inflate speed is the same for all levels.
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
