import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// gzip member headers with optional fields (RFC 1952 section 2.3), crafted by hand: FEXTRA, FNAME
/// and FCOMMENT are skipped by zlib unread, so vcproto bounds the header before inflating.
@Suite struct GzipHeaderTests {
  let frame = Array(#"{"type":"ping","note":"a frame with a gzip header that names a file"}"#.utf8)

  /// The library's gzip stream for `frame`, with the optional fields spliced in after the 10 fixed
  /// bytes and their FLG bits set (the CRC-32 covers the data only, so the stream stays valid).
  func gzip(extra: [UInt8]? = nil, name: [UInt8]? = nil, comment: [UInt8]? = nil, headerCRC: Bool = false)
    -> [UInt8]
  {
    let plain = compressed(frame, .gzip)
    #expect(plain[0] == 0x1F && plain[1] == 0x8B && plain[3] == 0, "a 10-byte header without options")
    var flags: UInt8 = 0
    var fields: [UInt8] = []
    if let extra {
      flags |= 0x04
      fields += [UInt8(extra.count & 0xFF), UInt8(extra.count >> 8)] + extra
    }
    if let name {
      flags |= 0x08
      fields += name + [0]
    }
    if let comment {
      flags |= 0x10
      fields += comment + [0]
    }
    if headerCRC {
      flags |= 0x02
      // CRC16 of the header: the low 16 bits of the CRC-32 of every header byte before it.
      var header = Array(plain[0..<10])
      header[3] = flags
      header += fields
      let crc = crc32(header)
      fields += [UInt8(crc & 0xFF), UInt8((crc >> 8) & 0xFF)]
    }
    var stream = Array(plain[0..<10])
    stream[3] = flags
    return stream + fields + plain[10...]
  }

  func open(_ stream: [UInt8], limits: EnvelopeLimits = .default) -> Result<[UInt8], EnvelopeError> {
    let codec = EnvelopeCodec(limits: limits)
    let envelope = binaryEnvelope(stream, declared: UInt32(frame.count), encodingID: 2)
    return Result { () throws(EnvelopeError) in try codec.open(binary: envelope) }
  }

  func text(_ stream: [UInt8]) -> Result<[UInt8], EnvelopeError> {
    Result { () throws(EnvelopeError) in
      try EnvelopeCodec().open(text: "gzip", length: frame.count, data: Data(stream).base64EncodedString())
    }
  }

  @Test func shortOptionalFieldsStillOpen() throws {
    let stream = gzip(
      extra: Array(repeating: 0x41, count: 20), name: Array("capture.json".utf8),
      comment: Array("from a phone".utf8), headerCRC: true)
    #expect(try open(stream).get() == frame)
    #expect(try text(stream).get() == frame)
  }

  @Test func longFileNameIsRefusedBeforeInflating() {
    // 15 MB of file name: the attack measured in the review. Refused by the bound, in both forms.
    let stream = gzip(name: Array(repeating: 0x61, count: 15_000_000))
    #expect(open(stream) == .failure(.gzipHeaderTooLarge))
    #expect(text(stream) == .failure(.gzipHeaderTooLarge))
  }

  @Test func longCommentAndLongExtraAreRefused() {
    #expect(open(gzip(comment: Array(repeating: 0x62, count: 5000))) == .failure(.gzipHeaderTooLarge))
    #expect(open(gzip(extra: Array(repeating: 0x63, count: 65_535))) == .failure(.gzipHeaderTooLarge))
    // Each field below the limit, together above it.
    #expect(
      open(
        gzip(
          extra: Array(repeating: 1, count: 400), name: Array(repeating: 0x61, count: 400),
          comment: Array(repeating: 0x62, count: 400))) == .failure(.gzipHeaderTooLarge))
  }

  @Test func theLimitIsExact() {
    // Header = 10 fixed bytes + name + its terminating zero.
    let limits = EnvelopeLimits(maxGzipHeaderSize: 100)
    #expect(open(gzip(name: Array(repeating: 0x61, count: 89)), limits: limits).map { _ in true } == .success(true))
    #expect(open(gzip(name: Array(repeating: 0x61, count: 90)), limits: limits) == .failure(.gzipHeaderTooLarge))
    // FHCRC's two bytes count too.
    #expect(
      open(gzip(name: Array(repeating: 0x61, count: 87), headerCRC: true), limits: limits).map { _ in true }
        == .success(true))
    #expect(
      open(gzip(name: Array(repeating: 0x61, count: 88), headerCRC: true), limits: limits)
        == .failure(.gzipHeaderTooLarge))
    // An unterminated name that reaches the limit is refused; one cut short below it is zlib's to report.
    var cut = gzip(name: Array(repeating: 0x61, count: 200))
    #expect(open(Array(cut[0..<150]), limits: limits) == .failure(.gzipHeaderTooLarge))
    cut = gzip(name: Array(repeating: 0x61, count: 40))
    #expect(open(Array(cut[0..<30]), limits: limits) == .failure(.truncated))
  }

  @Test func zlibStreamsAreNotLookedAt() {
    // The bound applies to gzip only; a zlib stream's second byte may well be 0x8B-free anything.
    let codec = EnvelopeCodec(limits: EnvelopeLimits(maxGzipHeaderSize: 0))
    let envelope = binaryEnvelope(compressed(frame, .zlib), declared: UInt32(frame.count), encodingID: 1)
    #expect((try? codec.open(binary: envelope)) == frame)
  }

  @Test func codeAndLimitAreDocumented() throws {
    #expect(EnvelopeError.gzipHeaderTooLarge.code == "envelope_gzip_header_too_large")
    #expect(EnvelopeLimits.default.maxGzipHeaderSize == 1024)
    let standards = try String(contentsOf: packageRoot().appendingPathComponent("STANDARDS.md"), encoding: .utf8)
    #expect(standards.contains("`envelope_gzip_header_too_large`"))
  }
}

/// CRC-32 (IEEE 802.3, reflected, as gzip uses), computed bit by bit: an oracle independent of zlib.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for b in bytes {
    crc ^= UInt32(b)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}
