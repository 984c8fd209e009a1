import XCTest

@testable import VCProto

final class RoundTripTests: XCTestCase {
  private let sizes = [1024, 1500, 4096, 30_000, 65_537, 1_048_576]

  func testBinaryRoundTripBothEncodings() throws {
    for encoding in EnvelopeEncoding.allCases {
      let codec = EnvelopeCodec(configuration: .init(encoding: encoding))
      for size in sizes {
        let frame = sampleFrame(byteCount: size, seed: UInt64(size))
        let sealed = try XCTUnwrap(try codec.seal(frame, form: .binary), "size \(size)")
        XCTAssertTrue(codec.isBinaryEnvelope(sealed))
        XCTAssertEqual(Array(sealed[0..<5]), [0x56, 0x43, 1, 0, encoding.wireID])
        XCTAssertEqual(Array(sealed[5..<9]), bigEndian(UInt32(size)))
        XCTAssertLessThan(sealed.count, frame.count, "realistic JSON must shrink")
        XCTAssertEqual(try codec.open(binary: sealed), frame, "\(encoding) size \(size)")
      }
    }
  }

  func testTextRoundTripBothEncodings() throws {
    for encoding in EnvelopeEncoding.allCases {
      let codec = EnvelopeCodec(configuration: .init(encoding: encoding))
      for size in sizes {
        let frame = sampleFrame(byteCount: size, seed: UInt64(size) + 7)
        let sealed = try XCTUnwrap(try codec.seal(frame, form: .text))
        let text = String(decoding: sealed, as: UTF8.self)
        let prefix =
          #"{"type":"compressed","encoding":"\#(encoding.name)","length":\#(size),"data":""#
        XCTAssertTrue(text.hasPrefix(prefix), text.prefix(80).description)
        XCTAssertTrue(text.hasSuffix("\"}"))
        XCTAssertFalse(codec.isBinaryEnvelope(sealed))
        XCTAssertEqual(try codec.open(textFrame: sealed), frame, "\(encoding) \(size)")
      }
    }
  }

  func testTextFormMatchesFoundationBase64() throws {
    let codec = EnvelopeCodec()
    let frame = sampleFrame(byteCount: 5000)
    let object = try textEnvelopeObject(try XCTUnwrap(try codec.seal(frame, form: .text)))
    let decoded = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(object["data"]?.stringValue)))
    XCTAssertEqual(object["length"]?.intValue, frame.count)
    XCTAssertEqual(Data(compressed(frame)), decoded, "same zlib settings, same stream")
    XCTAssertEqual(
      try XCTUnwrap(try codec.sealText(frame)),
      String(decoding: try XCTUnwrap(try codec.seal(frame, form: .text)), as: UTF8.self))
  }

  func testEveryLevelRoundTrips() throws {
    let frame = sampleFrame(byteCount: 20_000)
    var sizes: [Int] = []
    for level in [0, 1, 6, 9] {
      let codec = EnvelopeCodec(configuration: .init(level: level))
      let sealed = try XCTUnwrap(try codec.seal(frame, form: .binary))
      sizes.append(sealed.count)
      XCTAssertEqual(try codec.open(binary: sealed), frame)
    }
    XCTAssertGreaterThan(sizes[0], frame.count, "level 0 stores")
    XCTAssertGreaterThan(sizes[1], sizes[3], "level 1 is larger than level 9")
  }

  func testSealIsDeterministic() throws {
    let codec = EnvelopeCodec()
    let frame = sampleFrame(byteCount: 3000)
    XCTAssertEqual(try codec.seal(frame, form: .binary), try codec.seal(frame, form: .binary))
    XCTAssertEqual(try codec.seal(frame, form: .text), try codec.seal(frame, form: .text))
  }

  private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}
