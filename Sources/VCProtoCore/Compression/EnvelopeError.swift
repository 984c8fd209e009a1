/// Why an envelope could not be sealed or opened.
///
/// Each case has a stable snake_case ``code`` suitable for logs, error frames and test
/// vectors. Codes never change meaning once published.
public enum EnvelopeError: Error, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Binary form: bytes 0-1 are not ASCII `"VC"`.
  case badMagic
  /// Binary form: byte 2 (format version) is not 1.
  case unsupportedVersion
  /// Binary form: byte 3 (flags) is not 0.
  case reservedFlags
  /// Binary encoding id other than 1 or 2, or text `encoding` other than `"zlib"`/`"gzip"`.
  case unknownEncoding
  /// Binary form: fewer than 9 bytes, and the bytes present are a valid header prefix.
  case truncatedHeader
  /// Declared length exceeds `maxInflatedSize`, or the compressed payload exceeds
  /// `maxCompressedSize`; also thrown by `seal` for frames that cannot be represented
  /// or would be refused under the same limits. Nothing is inflated.
  case tooLarge
  /// Inflated output went past the declared length (or `maxInflatedSize`); inflation was
  /// stopped at the first excess byte.
  case inflateLimit
  /// Inflated output went past `maxCompressionRatio` times the compressed length;
  /// inflation was stopped at the first excess byte.
  case ratioExceeded
  /// The stream ended cleanly but produced fewer bytes than declared.
  case lengthMismatch
  /// The compressed input ended before the end of the zlib/gzip stream.
  case truncated
  /// The compressed data is invalid or fails its Adler-32/CRC-32/size check.
  case corrupt
  /// Bytes follow the end of the zlib/gzip stream.
  case trailingData
  /// A gzip stream's header (its optional FEXTRA, FNAME and FCOMMENT fields included) is longer
  /// than `maxGzipHeaderSize`. Nothing is inflated.
  case gzipHeaderTooLarge
  /// Text form: `data` is not strict, canonical, padded standard base64.
  case invalidBase64
  /// Text form: the frame is not a JSON object of `type` `"compressed"` (invalid JSON and
  /// duplicate keys included), a field is missing or has the wrong JSON type, or `length`
  /// is not an integer in `0...UInt32.max`.
  case malformed

  /// The stable wire/log code, e.g. `"envelope_bad_magic"`.
  public var code: String {
    switch self {
    case .badMagic: "envelope_bad_magic"
    case .unsupportedVersion: "envelope_unsupported_version"
    case .reservedFlags: "envelope_reserved_flags"
    case .unknownEncoding: "envelope_unknown_encoding"
    case .truncatedHeader: "envelope_truncated_header"
    case .tooLarge: "envelope_too_large"
    case .inflateLimit: "envelope_inflate_limit"
    case .ratioExceeded: "envelope_ratio_exceeded"
    case .lengthMismatch: "envelope_length_mismatch"
    case .truncated: "envelope_truncated"
    case .corrupt: "envelope_corrupt"
    case .trailingData: "envelope_trailing_data"
    case .gzipHeaderTooLarge: "envelope_gzip_header_too_large"
    case .invalidBase64: "envelope_invalid_base64"
    case .malformed: "envelope_malformed"
    }
  }

  /// Looks up an error by its ``code``; `nil` when the code is unknown.
  public init?(code: String) {
    guard let match = Self.allCases.first(where: { $0.code == code }) else { return nil }
    self = match
  }

  /// The ``code``.
  public var description: String { code }
}
