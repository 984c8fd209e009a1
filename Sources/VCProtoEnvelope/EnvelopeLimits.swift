import VCProtoCore
import VCProtoJSON

/// Resource limits a receiver enforces while opening a compression envelope.
///
/// Every limit is checked before or *while* inflating, never after the fact, so a
/// hostile envelope can never make the receiver hold more than
/// `min(maxInflatedSize, declaredLength) + 1` inflated bytes.
public struct EnvelopeLimits: Sendable, Hashable {
  /// Largest inflated frame, in bytes, the receiver accepts (default 16 MiB).
  ///
  /// Defends against memory exhaustion: an envelope whose declared length exceeds this
  /// is refused with `envelope_too_large` before any byte is inflated, and inflation
  /// stops with `envelope_inflate_limit` the moment output would pass it.
  public var maxInflatedSize: Int

  /// Largest accepted ratio of inflated bytes to compressed bytes (default 1000).
  ///
  /// Defends against decompression bombs that declare a plausible length but whose
  /// output grows far faster than any real JSON compresses: inflation stops with
  /// `envelope_ratio_exceeded` as soon as output exceeds
  /// `maxCompressionRatio * compressedLength`. Real protocol JSON compresses 3:1 to 30:1;
  /// DEFLATE's theoretical maximum is about 1032:1.
  public var maxCompressionRatio: Int

  /// Largest compressed stream, in bytes, the receiver accepts (default 16 MiB).
  ///
  /// Defends against wasting CPU and memory on oversized input: the compressed payload
  /// (after base64 decoding for the text form) is refused with `envelope_too_large`
  /// before inflating if it is larger than this.
  public var maxCompressedSize: Int

  /// Longest gzip member header, in bytes: the 10 fixed bytes and the optional FEXTRA, FNAME,
  /// FCOMMENT and FHCRC fields (default 1024).
  ///
  /// Defends against a stream whose header carries megabytes that zlib would skip unchecked (and
  /// that would count as compressed input in the ratio check): a longer header is refused with
  /// `envelope_gzip_header_too_large` before anything is inflated, after looking at no more than
  /// this many bytes. vcproto's senders write a 10-byte header.
  public var maxGzipHeaderSize: Int

  /// Creates limits; every parameter defaults to the protocol default.
  public init(
    maxInflatedSize: Int = 16 * 1024 * 1024,
    maxCompressionRatio: Int = 1000,
    maxCompressedSize: Int = 16 * 1024 * 1024,
    maxGzipHeaderSize: Int = 1024
  ) {
    self.maxInflatedSize = maxInflatedSize
    self.maxCompressionRatio = maxCompressionRatio
    self.maxCompressedSize = maxCompressedSize
    self.maxGzipHeaderSize = maxGzipHeaderSize
  }

  /// The protocol defaults (16 MiB inflated, ratio 1000, 16 MiB compressed, 1 KiB gzip header).
  public static let `default` = EnvelopeLimits()
}
