import XCTest

@testable import VCProto

final class HeaderTests: XCTestCase {
  private let codec = EnvelopeCodec()
  private lazy var frame = sampleFrame(byteCount: 2000)
  private lazy var payload = compressed(frame)

  func testValidHandBuiltHeader() throws {
    XCTAssertEqual(try codec.open(binary: binaryEnvelope(payload, declared: 2000)), frame)
    let gzip = compressed(frame, .gzip)
    XCTAssertEqual(
      try codec.open(binary: binaryEnvelope(gzip, declared: 2000, encodingID: 2)), frame)
  }

  func testBadMagic() {
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

  func testUnsupportedVersion() {
    let p = payload
    for version: UInt8 in [0, 2, 0xFF] {
      assertEnvelopeError(.unsupportedVersion) { () throws(EnvelopeError) in
        try codec.open(binary: binaryEnvelope(p, declared: 2000, version: version))
      }
    }
  }

  func testReservedFlags() {
    let p = payload
    for flags: UInt8 in [1, 0x80, 0xFF] {
      assertEnvelopeError(.reservedFlags) { () throws(EnvelopeError) in
        try codec.open(binary: binaryEnvelope(p, declared: 2000, flags: flags))
      }
    }
  }

  func testUnknownEncoding() {
    let p = payload
    for id: UInt8 in [0, 3, 0xFF] {
      assertEnvelopeError(.unknownEncoding) { () throws(EnvelopeError) in
        try codec.open(binary: binaryEnvelope(p, declared: 2000, encodingID: id))
      }
    }
  }

  func testHeaderShorterThanNineBytes() {
    let header = binaryEnvelope([], declared: 2000)
    XCTAssertEqual(header.count, 9)
    for length in 0..<9 {
      let prefix = Array(header.prefix(length))
      assertEnvelopeError(.truncatedHeader) { () throws(EnvelopeError) in
        try codec.open(binary: prefix)
      }
    }
    // A complete header with no stream is a truncated *stream*, not header.
    assertEnvelopeError(.truncated) { () throws(EnvelopeError) in try codec.open(binary: header) }
  }

  func testFirstBadFieldWins() {
    // Bad version and bad flags: the version (earlier field) decides.
    assertEnvelopeError(.unsupportedVersion) { () throws(EnvelopeError) in
      try codec.open(binary: [0x56, 0x43, 9, 9, 9])
    }
    // Short but with a bad field present: the field error, not truncated_header.
    assertEnvelopeError(.reservedFlags) { () throws(EnvelopeError) in
      try codec.open(binary: [0x56, 0x43, 1, 4])
    }
  }

  func testIsBinaryEnvelope() {
    XCTAssertTrue(codec.isBinaryEnvelope([0x56, 0x43]))
    XCTAssertTrue(codec.isBinaryEnvelope(binaryEnvelope(payload, declared: 2000)))
    XCTAssertFalse(codec.isBinaryEnvelope([0x56]))
    XCTAssertFalse(codec.isBinaryEnvelope([]))
    XCTAssertFalse(codec.isBinaryEnvelope(Array(#"{"type":"ping"}"#.utf8)))
    XCTAssertFalse(codec.isBinaryEnvelope([0x43, 0x56]))
  }

  func testErrorCodesAreStable() {
    XCTAssertEqual(
      EnvelopeError.allCases.map(\.code),
      [
        "envelope_bad_magic", "envelope_unsupported_version", "envelope_reserved_flags",
        "envelope_unknown_encoding", "envelope_truncated_header", "envelope_too_large",
        "envelope_inflate_limit", "envelope_ratio_exceeded", "envelope_length_mismatch",
        "envelope_truncated", "envelope_corrupt", "envelope_trailing_data",
        "envelope_gzip_header_too_large", "envelope_invalid_base64", "envelope_malformed",
      ])
    for error in EnvelopeError.allCases { XCTAssertEqual(EnvelopeError(code: error.code), error) }
    XCTAssertNil(EnvelopeError(code: "envelope_nope"))
  }

  func testEncodingNamesAndIDs() {
    XCTAssertEqual(EnvelopeEncoding.zlib.wireID, 1)
    XCTAssertEqual(EnvelopeEncoding.gzip.wireID, 2)
    XCTAssertEqual(EnvelopeEncoding(name: "gzip"), .gzip)
    XCTAssertEqual(EnvelopeEncoding(name: "zlib"), .zlib)
    XCTAssertNil(EnvelopeEncoding(name: "Zlib"))
    XCTAssertNil(EnvelopeEncoding(wireID: 3))
  }
}
