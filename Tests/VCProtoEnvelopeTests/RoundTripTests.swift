import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct RoundTripTests {
  private let sizes = [1024, 1500, 4096, 30_000, 65_537, 1_048_576]

  @Test func binaryRoundTripBothEncodings() throws {
    for encoding in EnvelopeEncoding.allCases {
      let codec = EnvelopeCodec(configuration: .init(encoding: encoding))
      for size in sizes {
        let frame = sampleFrame(byteCount: size, seed: UInt64(size))
        let sealed = try #require(try codec.seal(frame, form: .binary), "size \(size)")
        #expect(codec.isBinaryEnvelope(sealed))
        #expect(Array(sealed[0..<5]) == [0x56, 0x43, 1, 0, encoding.wireID])
        #expect(Array(sealed[5..<9]) == bigEndian(UInt32(size)))
        #expect(sealed.count < frame.count, "realistic JSON must shrink")
        #expect(try codec.open(binary: sealed) == frame, "\(encoding) size \(size)")
      }
    }
  }

  @Test func textRoundTripBothEncodings() throws {
    for encoding in EnvelopeEncoding.allCases {
      let codec = EnvelopeCodec(configuration: .init(encoding: encoding))
      for size in sizes {
        let frame = sampleFrame(byteCount: size, seed: UInt64(size) + 7)
        let sealed = try #require(try codec.seal(frame, form: .text))
        let text = String(decoding: sealed, as: UTF8.self)
        let prefix =
          #"{"type":"compressed","encoding":"\#(encoding.name)","length":\#(size),"data":""#
        #expect(text.hasPrefix(prefix), "\(text.prefix(80).description)")
        #expect(text.hasSuffix("\"}"))
        #expect(!codec.isBinaryEnvelope(sealed))
        #expect(try codec.open(textFrame: sealed) == frame, "\(encoding) \(size)")
      }
    }
  }

  @Test func textFormMatchesFoundationBase64() throws {
    let codec = EnvelopeCodec()
    let frame = sampleFrame(byteCount: 5000)
    let object = try textEnvelopeObject(try #require(try codec.seal(frame, form: .text)))
    let data = try #require(object["data"]?.stringValue)
    let decoded = try #require(Data(base64Encoded: data))
    #expect(object["length"]?.intValue == frame.count)
    #expect(Data(compressed(frame)) == decoded, "same zlib settings, same stream")
    #expect(
      try #require(try codec.sealText(frame))
        == String(decoding: try #require(try codec.seal(frame, form: .text)), as: UTF8.self))
  }

  @Test func everyLevelRoundTrips() throws {
    let frame = sampleFrame(byteCount: 20_000)
    var sizes: [Int] = []
    for level in [0, 1, 6, 9] {
      let codec = EnvelopeCodec(configuration: .init(level: level))
      let sealed = try #require(try codec.seal(frame, form: .binary))
      sizes.append(sealed.count)
      #expect(try codec.open(binary: sealed) == frame)
    }
    #expect(sizes[0] > frame.count, "level 0 stores")
    #expect(sizes[1] > sizes[3], "level 1 is larger than level 9")
  }

  @Test func sealIsDeterministic() throws {
    let codec = EnvelopeCodec()
    let frame = sampleFrame(byteCount: 3000)
    #expect(try codec.seal(frame, form: .binary) == codec.seal(frame, form: .binary))
    #expect(try codec.seal(frame, form: .text) == codec.seal(frame, form: .text))
  }

  private func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}
