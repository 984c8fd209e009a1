import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct StreamIntegrityTests {
  private let codec = EnvelopeCodec()
  private let frame = sampleFrame(byteCount: 6000, seed: 42)

  @Test func declaredLengthTooShort() {
    for encoding in EnvelopeEncoding.allCases {
      let envelope = binaryEnvelope(
        compressed(frame, encoding), declared: 5999, encodingID: encoding.wireID)
      assertEnvelopeError(.inflateLimit) { () throws(EnvelopeError) in
        try codec.open(binary: envelope)
      }
    }
  }

  @Test func declaredLengthTooLong() {
    for encoding in EnvelopeEncoding.allCases {
      for declared: UInt32 in [6001, 7000] {
        let envelope = binaryEnvelope(
          compressed(frame, encoding), declared: declared, encodingID: encoding.wireID)
        assertEnvelopeError(.lengthMismatch) { () throws(EnvelopeError) in
          try codec.open(binary: envelope)
        }
      }
    }
  }

  @Test func truncatedStream() {
    for encoding in EnvelopeEncoding.allCases {
      let payload = compressed(frame, encoding)
      for cut in [1, 4, payload.count / 2, payload.count - 2] {
        let envelope = binaryEnvelope(
          Array(payload.dropLast(cut)), declared: 6000, encodingID: encoding.wireID)
        assertEnvelopeError(.truncated) { () throws(EnvelopeError) in
          try codec.open(binary: envelope)
        }
      }
    }
  }

  @Test func checksumFlipIsCorrupt() {
    for encoding in EnvelopeEncoding.allCases {
      var payload = compressed(frame, encoding)
      // zlib: last byte of Adler-32; gzip: first byte of CRC-32 (8 bytes from the end).
      let index = encoding == .zlib ? payload.count - 1 : payload.count - 8
      payload[index] ^= 0x01
      let envelope = binaryEnvelope(payload, declared: 6000, encodingID: encoding.wireID)
      assertEnvelopeError(.corrupt) { () throws(EnvelopeError) in try codec.open(binary: envelope) }
    }
  }

  @Test func flippedByteInTheMiddle() throws {
    var payload = compressed(frame)
    let middle = payload.count / 2
    payload[middle] ^= 0xFF
    let envelope = binaryEnvelope(payload, declared: 6000)
    do {
      let opened = try codec.open(binary: envelope)
      Issue.record("corrupted stream opened (\(opened.count) bytes)")
    } catch {
      // A flip may turn the DEFLATE data into an invalid code (corrupt), valid code
      // producing different bytes (Adler-32 mismatch: corrupt), or codes producing a
      // different amount of output (the length checks fire first).
      #expect([.corrupt, .inflateLimit, .lengthMismatch, .truncated].contains(error), "\(error.code)")
    }
    // Across the whole stream, no single-bit flip ever yields different bytes: it is
    // either rejected, or it hit the unused padding bits of the last DEFLATE byte, which
    // no decoder reads (then the output is the original frame).
    let clean = compressed(frame)
    var accepted = 0
    for index in 0..<clean.count {
      var damaged = clean
      damaged[index] ^= 0x10
      do {
        let opened = try codec.open(binary: binaryEnvelope(damaged, declared: 6000))
        #expect(opened == frame, "flip at \(index) changed the output undetected")
        accepted += 1
      } catch {
        #expect(error != .badMagic)
      }
    }
    #expect(accepted <= 1, "only padding bits may be flipped harmlessly")
  }

  @Test func trailingGarbage() {
    for encoding in EnvelopeEncoding.allCases {
      let payload = compressed(frame, encoding)
      for garbage: [UInt8] in [[0], [0x78, 0x9C], payload] {
        let envelope = binaryEnvelope(
          payload + garbage, declared: 6000, encodingID: encoding.wireID)
        assertEnvelopeError(.trailingData) { () throws(EnvelopeError) in
          try codec.open(binary: envelope)
        }
      }
    }
  }

  @Test func wrongEncodingLabel() {
    let envelope = binaryEnvelope(compressed(frame, .zlib), declared: 6000, encodingID: 2)
    assertEnvelopeError(.corrupt) { () throws(EnvelopeError) in try codec.open(binary: envelope) }
  }

  @Test func textFormStreamErrors() {
    let payload = compressed(frame)
    let data = Data(payload).base64EncodedString()
    assertEnvelopeError(.inflateLimit) { () throws(EnvelopeError) in
      try codec.open(text: "zlib", length: 5999, data: data)
    }
    assertEnvelopeError(.lengthMismatch) { () throws(EnvelopeError) in
      try codec.open(text: "zlib", length: 6001, data: data)
    }
    assertEnvelopeError(.truncated) { () throws(EnvelopeError) in
      try codec.open(
        text: "zlib", length: 6000, data: Data(payload.dropLast(4)).base64EncodedString())
    }
    assertEnvelopeError(.trailingData) { () throws(EnvelopeError) in
      try codec.open(text: "zlib", length: 6000, data: Data(payload + [1]).base64EncodedString())
    }
    assertEnvelopeError(.corrupt) { () throws(EnvelopeError) in
      try codec.open(text: "gzip", length: 6000, data: data)
    }
    assertEnvelopeError(.unknownEncoding) { () throws(EnvelopeError) in
      try codec.open(text: "deflate", length: 6000, data: data)
    }
  }
}
