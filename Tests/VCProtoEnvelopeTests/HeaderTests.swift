import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct HeaderTests {
  private let codec = EnvelopeCodec()
  private let frame: [UInt8]
  private let payload: [UInt8]

  init() {
    frame = sampleFrame(byteCount: 2000)
    payload = compressed(frame)
  }

  @Test func validHandBuiltHeader() throws {
    #expect(try codec.open(binary: binaryEnvelope(payload, declared: 2000)) == frame)
    let gzip = compressed(frame, .gzip)
    #expect(try codec.open(binary: binaryEnvelope(gzip, declared: 2000, encodingID: 2)) == frame)
  }

  @Test func badMagic() {
    let p = payload
    assertEnvelopeError(.badMagic) { () throws(EnvelopeError) in
      try codec.open(binary: binaryEnvelope(p, declared: 2000, magic: [0x58, 0x43]))
    }
    assertEnvelopeError(.badMagic) { () throws(EnvelopeError) in
      try codec.open(binary: binaryEnvelope(p, declared: 2000, magic: [0x56, 0x63]))
    }
    assertEnvelopeError(.badMagic) { () throws(EnvelopeError) in
      try codec.open(binary: Array(#"{"type":"ping"}"#.utf8))
    }
    assertEnvelopeError(.badMagic) { () throws(EnvelopeError) in try codec.open(binary: [0x7B]) }
  }

  @Test func unsupportedVersion() {
    let p = payload
    for version: UInt8 in [0, 2, 0xFF] {
      assertEnvelopeError(.unsupportedVersion) { () throws(EnvelopeError) in
        try codec.open(binary: binaryEnvelope(p, declared: 2000, version: version))
      }
    }
  }

  @Test func reservedFlags() {
    let p = payload
    for flags: UInt8 in [1, 0x80, 0xFF] {
      assertEnvelopeError(.reservedFlags) { () throws(EnvelopeError) in
        try codec.open(binary: binaryEnvelope(p, declared: 2000, flags: flags))
      }
    }
  }

  @Test func unknownEncoding() {
    let p = payload
    for id: UInt8 in [0, 3, 0xFF] {
      assertEnvelopeError(.unknownEncoding) { () throws(EnvelopeError) in
        try codec.open(binary: binaryEnvelope(p, declared: 2000, encodingID: id))
      }
    }
  }

  @Test func headerShorterThanNineBytes() {
    let header = binaryEnvelope([], declared: 2000)
    #expect(header.count == 9)
    for length in 0..<9 {
      let prefix = Array(header.prefix(length))
      assertEnvelopeError(.truncatedHeader) { () throws(EnvelopeError) in
        try codec.open(binary: prefix)
      }
    }
    // A complete header with no stream is a truncated *stream*, not header.
    assertEnvelopeError(.truncated) { () throws(EnvelopeError) in try codec.open(binary: header) }
  }

  @Test func firstBadFieldWins() {
    // Bad version and bad flags: the version (earlier field) decides.
    assertEnvelopeError(.unsupportedVersion) { () throws(EnvelopeError) in
      try codec.open(binary: [0x56, 0x43, 9, 9, 9])
    }
    // Short but with a bad field present: the field error, not truncated_header.
    assertEnvelopeError(.reservedFlags) { () throws(EnvelopeError) in
      try codec.open(binary: [0x56, 0x43, 1, 4])
    }
  }

  @Test func isBinaryEnvelope() {
    #expect(codec.isBinaryEnvelope([0x56, 0x43]))
    #expect(codec.isBinaryEnvelope(binaryEnvelope(payload, declared: 2000)))
    #expect(!codec.isBinaryEnvelope([0x56]))
    #expect(!codec.isBinaryEnvelope([]))
    #expect(!(codec.isBinaryEnvelope(Array(#"{"type":"ping"}"#.utf8))))
    #expect(!codec.isBinaryEnvelope([0x43, 0x56]))
  }

  @Test func errorCodesAreStable() {
    #expect(
      EnvelopeError.allCases.map(\.code) == [
        "envelope_bad_magic", "envelope_unsupported_version", "envelope_reserved_flags",
        "envelope_unknown_encoding", "envelope_truncated_header", "envelope_too_large",
        "envelope_inflate_limit", "envelope_ratio_exceeded", "envelope_length_mismatch",
        "envelope_truncated", "envelope_corrupt", "envelope_trailing_data",
        "envelope_gzip_header_too_large", "envelope_invalid_base64", "envelope_malformed",
      ])
    for error in EnvelopeError.allCases { #expect(EnvelopeError(code: error.code) == error) }
    #expect(EnvelopeError(code: "envelope_nope") == nil)
  }

  @Test func encodingNamesAndIDs() {
    #expect(EnvelopeEncoding.zlib.wireID == 1)
    #expect(EnvelopeEncoding.gzip.wireID == 2)
    #expect(EnvelopeEncoding(name: "gzip") == .gzip)
    #expect(EnvelopeEncoding(name: "zlib") == .zlib)
    #expect(EnvelopeEncoding(name: "Zlib") == nil)
    #expect(EnvelopeEncoding(wireID: 3) == nil)
  }
}
