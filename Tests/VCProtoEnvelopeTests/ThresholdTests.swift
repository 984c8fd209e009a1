import XCTest

@testable import VCProto

final class ThresholdTests: XCTestCase {
  func testBelowThresholdIsNotSealed() throws {
    let codec = EnvelopeCodec()
    let frame = sampleFrame(byteCount: 1023)
    XCTAssertNil(try codec.seal(frame, form: .binary))
    XCTAssertNil(try codec.seal(frame, form: .text))
    XCTAssertNil(try codec.sealText(frame))
  }

  func testAtThresholdIsSealed() throws {
    let codec = EnvelopeCodec()
    let frame = sampleFrame(byteCount: 1024)
    let binary = try XCTUnwrap(try codec.seal(frame, form: .binary))
    XCTAssertEqual(try codec.open(binary: binary), frame)
    let text = try XCTUnwrap(try codec.seal(frame, form: .text))
    XCTAssertEqual(try codec.open(textFrame: text), frame)
  }

  func testCustomThreshold() throws {
    let codec = EnvelopeCodec(configuration: .init(threshold: 300))
    XCTAssertNil(try codec.seal(sampleFrame(byteCount: 299), form: .binary))
    XCTAssertNotNil(try codec.seal(sampleFrame(byteCount: 300), form: .binary))
  }

  func testDefaults() {
    let configuration = EnvelopeConfiguration()
    XCTAssertEqual(configuration.threshold, 1024)
    XCTAssertEqual(configuration.level, 6)
    XCTAssertEqual(configuration.encoding, .zlib)
    let limits = EnvelopeLimits()
    XCTAssertEqual(limits.maxInflatedSize, 16 * 1024 * 1024)
    XCTAssertEqual(limits.maxCompressionRatio, 1000)
    XCTAssertEqual(limits.maxCompressedSize, 16 * 1024 * 1024)
  }

  func testReceiversAcceptSmallEnvelopes() throws {
    // The threshold binds senders only; a peer with a lower threshold is still understood.
    let small = Array(#"{"type":"ping"}"#.utf8)
    let sealed = try XCTUnwrap(
      try EnvelopeCodec(configuration: .init(threshold: 0)).seal(small, form: .binary))
    XCTAssertEqual(try EnvelopeCodec().open(binary: sealed), small)
  }

  func testSealRefusesFramesOverTheInflateCap() {
    let codec = EnvelopeCodec(limits: .init(maxInflatedSize: 4096))
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try codec.seal(sampleFrame(byteCount: 4097), form: .binary)
    }
    XCTAssertNoThrow(try codec.seal(sampleFrame(byteCount: 4096), form: .binary))
  }
}
