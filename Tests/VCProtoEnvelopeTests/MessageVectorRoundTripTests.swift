import XCTest

@testable import VCProto

/// Every valid message vector survives both envelope forms byte for byte.
final class MessageVectorRoundTripTests: XCTestCase {
  func testEveryValidMessageVectorRoundTripsInBothForms() throws {
    let vectors = try loadMessageVectors().filter(\.valid)
    XCTAssertGreaterThan(vectors.count, 60)
    var sealedCount = 0
    for encoding in EnvelopeEncoding.allCases {
      // Threshold 0: most vectors are far below the 1024-byte sending threshold.
      let codec = EnvelopeCodec(configuration: .init(threshold: 0, encoding: encoding))
      for vector in vectors {
        let frame = Array(vector.frame.utf8)
        let binary = try XCTUnwrap(try codec.seal(frame, form: .binary), vector.id)
        XCTAssertEqual(try codec.open(binary: binary), frame, "\(vector.id) binary \(encoding)")
        let text = try XCTUnwrap(try codec.seal(frame, form: .text), vector.id)
        XCTAssertEqual(try codec.open(textFrame: text), frame, "\(vector.id) text \(encoding)")
        // The library's validation entry point sees the same message as the plain frame.
        let validator = Validator(options: ValidationOptions(protocolVersion: vector.protocol_version))
        let plain = validator.validate(frame)
        XCTAssertTrue(plain.isValid, vector.id)
        for received in [ReceivedFrame.binary(binary), .text(text)] {
          let result = validator.validate(envelopedFrame: received)
          XCTAssertEqual(result.frame, frame, vector.id)
          XCTAssertEqual(result.findings, plain.findings, vector.id)
        }
        sealedCount += 2
      }
    }
    XCTAssertEqual(sealedCount, vectors.count * 4)
  }

  func testDefaultThresholdSealsOnlyLargeVectors() throws {
    let codec = EnvelopeCodec()
    for vector in try loadMessageVectors() where vector.valid {
      let frame = Array(vector.frame.utf8)
      let sealed = try codec.seal(frame, form: .binary)
      XCTAssertEqual(sealed == nil, frame.count < 1024, vector.id)
      if let sealed { XCTAssertEqual(try codec.open(binary: sealed), frame, vector.id) }
    }
  }
}
