import VCProtoCore
import VCProtoJSON

/// The compressed stream format carried inside an envelope.
public enum EnvelopeEncoding: UInt8, Sendable, Hashable, CaseIterable {
  /// zlib stream (RFC 1950: 2-byte header, DEFLATE data, Adler-32 trailer). Wire id 1.
  case zlib = 1
  /// gzip member (RFC 1952: 10+-byte header, DEFLATE data, CRC-32 and size trailer).
  /// Wire id 2.
  case gzip = 2

  /// The byte stored at offset 4 of the binary form.
  public var wireID: UInt8 { rawValue }

  /// The value of the `encoding` field of the text form: `"zlib"` or `"gzip"`.
  public var name: String {
    switch self {
    case .zlib: "zlib"
    case .gzip: "gzip"
    }
  }

  /// Looks up an encoding by its binary wire id; `nil` when unknown.
  public init?(wireID: UInt8) {
    self.init(rawValue: wireID)
  }

  /// Looks up an encoding by its text-form name (exact, case-sensitive); `nil` when unknown.
  public init?(name: String) {
    switch name {
    case "zlib": self = .zlib
    case "gzip": self = .gzip
    default: return nil
    }
  }

  /// zlib `windowBits` selecting this format: 15 (32 KiB window) plus 16 for gzip framing.
  var windowBits: Int32 {
    switch self {
    case .zlib: 15
    case .gzip: 31
    }
  }
}
