import Foundation
import Testing

@testable import VCProto

/// A decompression bomb: 1 GiB of zeros deflated (streamed, never materialised) to about
/// 1 MiB. Opening it must fail fast and without the process's memory growing.
@Suite struct BombTests {
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

  @Test func oneGibibyteBomb() throws {
    let started = ContinuousClock.now
    let payload = Self.makeBombPayload(level: 9)
    let generated = ContinuousClock.now - started
    print("bomb: 1 GiB of zeros -> \(payload.count) bytes at level 9 in \(generated)")
    #expect(payload.count < 1_100_000)
    #expect(payload.count > 900_000)

    let codec = EnvelopeCodec()
    // Every input is built before the memory baseline, so the measurement is what opening costs.
    let honest = binaryEnvelope(payload, declared: UInt32(Self.inflatedSize))
    let atCap = binaryEnvelope(payload, declared: UInt32(codec.limits.maxInflatedSize))
    let base64 = Data(payload).base64EncodedString()
    let textFrame = Array(
      #"{"type":"compressed","encoding":"zlib","length":\#(codec.limits.maxInflatedSize),"data":"\#(base64)"}"#.utf8)
    // The peak RSS is the whole process's, and Swift Testing runs the other tests of the process in
    // parallel: a test allocating at the same moment raises the peak. So the openings are measured up
    // to three times, and the least growth is held to the bound (a bomb that is inflated grows it by
    // far more on every try).
    let bound = codec.limits.maxInflatedSize + (8 << 20)
    var growths: [Int] = []
    for _ in 0..<3 {
      #if os(Linux)
        let resetWorked = resetPeakRSS()
        let baseline = try #require(resetWorked ? procStatusBytes("VmRSS") : procStatusBytes("VmHWM"))
      #endif
      Self.openBomb(codec: codec, honest: honest, atCap: atCap, base64: base64, textFrame: textFrame)
      #if os(Linux)
        let peak = try #require(procStatusBytes("VmHWM"))
        let growth = peak - baseline
        // The inflate buffer is the cap + 1 byte; the rest is zlib's state, the text form's decoded
        // payload and base64 text (2.4 MB) and allocator slack. Measured on Linux: 18.0 MiB (cap + 2 MiB).
        print(
          "bomb: peak RSS growth \(growth / 1024) KiB, bound \(bound / 1024) KiB (clear_refs reset: \(resetWorked))")
        growths.append(growth)
        if growth < bound { break }
      #else
        break
      #endif
    }
    #if os(Linux)
      let least = try #require(growths.min())
      #expect(least < bound, "peak RSS grew by \(growths) bytes")
    #endif
  }

  /// Opens the bomb in every form; each opening must fail with the error a bomb gets.
  static func openBomb(codec: EnvelopeCodec, honest: [UInt8], atCap: [UInt8], base64: String, textFrame: [UInt8]) {
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
    assertEnvelopeError(.ratioExceeded) { () throws(EnvelopeError) in try strict.open(binary: atCap) }
  }
}
