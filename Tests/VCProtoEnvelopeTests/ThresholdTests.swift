import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct ThresholdTests {
  @Test func belowThresholdIsNotSealed() throws {
    let codec = EnvelopeCodec()
    let frame = sampleFrame(byteCount: 1023)
    #expect(try codec.seal(frame, form: .binary) == nil)
    #expect(try codec.seal(frame, form: .text) == nil)
    #expect(try codec.sealText(frame) == nil)
  }

  @Test func atThresholdIsSealed() throws {
    let codec = EnvelopeCodec()
    let frame = sampleFrame(byteCount: 1024)
    let binary = try #require(try codec.seal(frame, form: .binary))
    #expect(try codec.open(binary: binary) == frame)
    let text = try #require(try codec.seal(frame, form: .text))
    #expect(try codec.open(textFrame: text) == frame)
  }

  @Test func customThreshold() throws {
    let codec = EnvelopeCodec(configuration: .init(threshold: 300))
    #expect(try codec.seal(sampleFrame(byteCount: 299), form: .binary) == nil)
    #expect(try codec.seal(sampleFrame(byteCount: 300), form: .binary) != nil)
  }

  @Test func defaults() {
    let configuration = EnvelopeConfiguration()
    #expect(configuration.threshold == 1024)
    #expect(configuration.level == 6)
    #expect(configuration.encoding == .zlib)
    let limits = EnvelopeLimits()
    #expect(limits.maxInflatedSize == 16 * 1024 * 1024)
    #expect(limits.maxCompressionRatio == 1000)
    #expect(limits.maxCompressedSize == 16 * 1024 * 1024)
  }

  @Test func receiversAcceptSmallEnvelopes() throws {
    // The threshold binds senders only; a peer with a lower threshold is still understood.
    let small = Array(#"{"type":"ping"}"#.utf8)
    let sealed = try #require(try EnvelopeCodec(configuration: .init(threshold: 0)).seal(small, form: .binary))
    #expect(try EnvelopeCodec().open(binary: sealed) == small)
  }

  @Test func sealRefusesFramesOverTheInflateCap() {
    let codec = EnvelopeCodec(limits: .init(maxInflatedSize: 4096))
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try codec.seal(sampleFrame(byteCount: 4097), form: .binary)
    }
    #expect(throws: Never.self) { try codec.seal(sampleFrame(byteCount: 4096), form: .binary) }
  }
}
