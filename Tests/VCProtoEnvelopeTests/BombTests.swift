import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A decompression bomb: 1 GiB of zeros deflated (streamed, never materialised) to about
/// 1 MiB. Opening it must fail fast and without the process's memory growing.
@Suite(.tags(.slow), .enabled(if: slowSuitesRun)) struct BombTests {
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

  /// The environment variable that tells the test it runs alone in its own process.
  static let aloneVariable = "VCPROTO_BOMB_TEST_ALONE"

  @Test func oneGibibyteBomb() throws {
    #if os(Linux)
      // The peak RSS bounded below is the whole process's, and Swift Testing runs the other suites of
      // the process in parallel (XCTest ran this test alone): another test allocating or freeing at the
      // same moment would move the peak. So the test runs itself again in a child process of the same
      // test binary, filtered to this one test, and that run measures.
      if ProcessInfo.processInfo.environment[Self.aloneVariable] == nil {
        try Self.runAlone()
        return
      }
    #endif
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
      let bound = codec.limits.maxInflatedSize + (8 << 20)
      print("bomb: peak RSS growth \(growth / 1024) KiB, bound \(bound / 1024) KiB (clear_refs reset: \(resetWorked))")
      #expect(growth < bound, "peak RSS grew by \(growth) bytes")
    #endif
  }

  #if os(Linux)
    /// Runs `oneGibibyteBomb` alone in a child process of this test binary; records its output as an
    /// issue unless the child's run passed.
    static func runAlone() throws {
      let child = Process()
      child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      child.arguments = [
        "--testing-library", "swift-testing", "--filter", #"VCProtoEnvelopeTests\.BombTests/oneGibibyteBomb"#,
      ]
      child.environment = ProcessInfo.processInfo.environment.merging([aloneVariable: "1"]) { $1 }
      let output = Pipe()
      child.standardOutput = output
      child.standardError = output
      try child.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      child.waitUntilExit()
      for line in text.split(separator: "\n") where line.hasPrefix("bomb:") { print(line) }
      #expect(child.terminationStatus == 0, "the bomb test alone in \(child.executableURL?.path ?? "?"):\n\(text)")
      // The child ran exactly this test (a filter that matched nothing would pass too).
      #expect(text.contains("Test run with 1 test"), "\(text)")
    }
  #endif

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
