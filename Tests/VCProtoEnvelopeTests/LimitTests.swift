import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct LimitTests {
  private let cap = 4096
  private var codec: EnvelopeCodec { EnvelopeCodec(limits: .init(maxInflatedSize: cap)) }

  @Test func inflatedSizeEqualToCapIsAccepted() throws {
    let frame = sampleFrame(byteCount: cap)
    #expect(try codec.open(binary: binaryEnvelope(compressed(frame), declared: UInt32(cap))) == frame)
    let fields = (
      encoding: "zlib", length: cap, data: Data(compressed(frame)).base64EncodedString()
    )
    #expect(try codec.open(text: fields.encoding, length: fields.length, data: fields.data) == frame)
  }

  @Test func declaredCapPlusOneIsRefusedBeforeInflating() {
    let frame = sampleFrame(byteCount: cap + 1)
    let envelope = binaryEnvelope(compressed(frame), declared: UInt32(cap + 1))
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in try codec.open(binary: envelope) }
    // Garbage payload: refused on the header alone, so the payload is never looked at.
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try codec.open(binary: binaryEnvelope([1, 2, 3], declared: UInt32(cap + 1)))
    }
    let base64 = Data(compressed(frame)).base64EncodedString()
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try codec.open(text: "zlib", length: cap + 1, data: base64)
    }
  }

  @Test func outputPastCapIsStoppedWhileInflating() {
    // Declares exactly the cap but really holds cap + 1 bytes.
    let frame = sampleFrame(byteCount: cap + 1)
    let envelope = binaryEnvelope(compressed(frame), declared: UInt32(cap))
    assertEnvelopeError(.inflateLimit) { () throws(EnvelopeError) in
      try codec.open(binary: envelope)
    }
  }

  @Test func inflaterNeverWritesPastTheLimitPlusOne() throws {
    // Drive the inflater directly: 1 MiB of real output, limit 100 bytes.
    let big = compressed(sampleFrame(byteCount: 1 << 20))
    big.withUnsafeBufferPointer { buffer in
      assertEnvelopeError(.inflateLimit) { () throws(EnvelopeError) in
        try Inflater.inflate(
          buffer, encoding: .zlib, declaredLength: 100, outputLimit: 1 << 24,
          maxCompressionRatio: 1000)
      }
      assertEnvelopeError(.inflateLimit) { () throws(EnvelopeError) in
        try Inflater.inflate(
          buffer, encoding: .zlib, declaredLength: 1 << 20, outputLimit: 100,
          maxCompressionRatio: 1000)
      }
    }
  }

  @Test func ratioBoundary() throws {
    // 200 000 zero bytes compress to a few hundred bytes: ratio well above 100.
    let zeros = [UInt8](repeating: 0x20, count: 200_000)
    let payload = compressed(zeros, level: 9)
    let ratio = zeros.count / payload.count
    #expect(ratio > 100)
    let envelope = binaryEnvelope(payload, declared: UInt32(zeros.count))
    // Exactly at the ratio (inflated <= ratio * compressed) is accepted ...
    let exactRatio = (zeros.count + payload.count - 1) / payload.count
    let atLimit = EnvelopeCodec(limits: .init(maxCompressionRatio: exactRatio))
    #expect(try atLimit.open(binary: envelope) == zeros)
    // ... one less is refused.
    let below = EnvelopeCodec(limits: .init(maxCompressionRatio: exactRatio - 1))
    assertEnvelopeError(.ratioExceeded) { () throws(EnvelopeError) in
      try below.open(binary: envelope)
    }
    assertEnvelopeError(.ratioExceeded) { () throws(EnvelopeError) in
      try EnvelopeCodec(limits: .init(maxCompressionRatio: 100)).open(binary: envelope)
    }
  }

  @Test func compressedSizeLimit() {
    let frame = sampleFrame(byteCount: 8000)
    let payload = compressed(frame)
    let exact = EnvelopeCodec(limits: .init(maxCompressedSize: payload.count))
    #expect(throws: Never.self) { try exact.open(binary: binaryEnvelope(payload, declared: 8000)) }
    let tight = EnvelopeCodec(limits: .init(maxCompressedSize: payload.count - 1))
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try tight.open(binary: binaryEnvelope(payload, declared: 8000))
    }
    let base64 = Data(payload).base64EncodedString()
    #expect(throws: Never.self) { try exact.open(text: "zlib", length: 8000, data: base64) }
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try tight.open(text: "zlib", length: 8000, data: base64)
    }
  }

  @Test(.tags(.slow), .enabled(if: slowSuitesRun)) func defaultLimitsAcceptSixteenMiB() throws {
    let frame = sampleFrame(byteCount: 16 * 1024 * 1024)
    let codec = EnvelopeCodec()
    let sealed = try #require(try codec.seal(frame, form: .binary))
    #expect(try codec.open(binary: sealed) == frame)
    var oneMore = sealed
    oneMore[8] &+= 1  // declared 16 MiB + 1
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in try codec.open(binary: oneMore) }
  }
}
