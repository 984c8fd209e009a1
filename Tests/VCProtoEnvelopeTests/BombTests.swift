import XCTest

@testable import VCProto

/// A decompression bomb: 1 GiB of zeros deflated (streamed, never materialised) to about
/// 1 MiB. Opening it must fail fast and without the process's memory growing.
final class BombTests: XCTestCase {
  static let inflatedSize = 1 << 30

  /// Streams `inflatedSize` zero bytes through the deflater in 1 MiB chunks.
  static func makeBombPayload(level: Int32) -> [UInt8] {
    let zeros = [UInt8](repeating: 0, count: 1 << 20)
    var deflater = Deflater(encoding: .zlib, level: level)
    var output: [UInt8] = []
    output.reserveCapacity(1_100_000)
    zeros.withUnsafeBytes { chunk in
      for index in 0..<(inflatedSize / chunk.count) {
        let last = index == inflatedSize / chunk.count - 1
        deflater.compress(chunk, finish: last, appendingTo: &output)
      }
    }
    return output
  }

  func testOneGibibyteBomb() throws {
    let started = ContinuousClock.now
    let payload = Self.makeBombPayload(level: 9)
    let generated = ContinuousClock.now - started
    print("bomb: 1 GiB of zeros -> \(payload.count) bytes at level 9 in \(generated)")
    XCTAssertLessThan(payload.count, 1_100_000)
    XCTAssertGreaterThan(payload.count, 900_000)

    let codec = EnvelopeCodec()
    // Every input is built before the memory baseline, so the measurement is what opening costs.
    let honest = binaryEnvelope(payload, declared: UInt32(Self.inflatedSize))
    let atCap = binaryEnvelope(payload, declared: UInt32(codec.limits.maxInflatedSize))
    let base64 = Data(payload).base64EncodedString()
    let textFrame = Array(
      #"{"type":"compressed","encoding":"zlib","length":\#(codec.limits.maxInflatedSize),"data":"\#(base64)"}"#.utf8)
    #if os(Linux)
      let resetWorked = resetPeakRSS()
      let baseline = try XCTUnwrap(
        resetWorked ? procStatusBytes("VmRSS") : procStatusBytes("VmHWM"))
    #endif

    // Honest declared length: refused from the header, nothing inflated.
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in try codec.open(binary: honest) }

    // Declared length at the cap: inflation stops at 16 MiB + 1 byte.
    let opening = ContinuousClock.now
    assertEnvelopeError(.inflateLimit) { () throws(EnvelopeError) in try codec.open(binary: atCap) }
    print("bomb: refused at the 16 MiB cap in \(ContinuousClock.now - opening)")

    // Same bomb in text form.
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try codec.open(text: "zlib", length: Self.inflatedSize, data: base64)
    }
    assertEnvelopeError(.inflateLimit) { () throws(EnvelopeError) in
      try codec.open(text: "zlib", length: codec.limits.maxInflatedSize, data: base64)
    }
    assertEnvelopeError(.inflateLimit) { () throws(EnvelopeError) in try codec.open(textFrame: textFrame) }

    // A tighter ratio limit catches it as a ratio violation instead.
    let strict = EnvelopeCodec(limits: .init(maxCompressionRatio: 10))
    assertEnvelopeError(.ratioExceeded) { () throws(EnvelopeError) in try strict.open(binary: atCap)
    }

    #if os(Linux)
      let peak = try XCTUnwrap(procStatusBytes("VmHWM"))
      let growth = peak - baseline
      // The inflate buffer is the cap + 1 byte; the rest is zlib's state, the text form's decoded
      // payload and base64 text (2.4 MB) and allocator slack. Measured on Linux: 18.0 MiB (cap + 2 MiB).
      let bound = codec.limits.maxInflatedSize + (8 << 20)
      print("bomb: peak RSS growth \(growth / 1024) KiB, bound \(bound / 1024) KiB (clear_refs reset: \(resetWorked))")
      XCTAssertLessThan(growth, bound, "peak RSS grew by \(growth) bytes")
    #endif
  }
}
