import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Every valid message vector survives both envelope forms byte for byte.
@Suite struct MessageVectorRoundTripTests {
  @Test func everyValidMessageVectorRoundTripsInBothForms() throws {
    let vectors = try loadMessageVectors().filter(\.valid)
    #expect(vectors.count > 60)
    var sealedCount = 0
    for encoding in EnvelopeEncoding.allCases {
      // Threshold 0: most vectors are far below the 1024-byte sending threshold.
      let codec = EnvelopeCodec(configuration: .init(threshold: 0, encoding: encoding))
      for vector in vectors {
        let frame = Array(vector.frame.utf8)
        let binary = try #require(try codec.seal(frame, form: .binary), "\(vector.id)")
        #expect(try codec.open(binary: binary) == frame, "\(vector.id) binary \(encoding)")
        let text = try #require(try codec.seal(frame, form: .text), "\(vector.id)")
        #expect(try codec.open(textFrame: text) == frame, "\(vector.id) text \(encoding)")
        // The library's validation entry point sees the same message as the plain frame.
        let validator = Validator(
          options: ValidationOptions(version: ProtocolVersion(rawValue: vector.protocol_version)!))
        let plain = validator.validate(frame)
        #expect(plain.isValid, "\(vector.id)")
        for received in [WebSocketMessage.binary(binary), .text(text)] {
          let result = validator.validate(envelopedFrame: received)
          #expect(result.frame == frame, "\(vector.id)")
          #expect(result.findings == plain.findings, "\(vector.id)")
        }
        sealedCount += 2
      }
    }
    #expect(sealedCount == vectors.count * 4)
  }

  @Test func defaultThresholdSealsOnlyLargeVectors() throws {
    let codec = EnvelopeCodec()
    for vector in try loadMessageVectors() where vector.valid {
      let frame = Array(vector.frame.utf8)
      let sealed = try codec.seal(frame, form: .binary)
      #expect((sealed == nil) == (frame.count < 1024), "\(vector.id)")
      if let sealed { #expect(try codec.open(binary: sealed) == frame, "\(vector.id)") }
    }
  }
}
