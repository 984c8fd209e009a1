import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The direct path matches member names byte for byte in place: a name must match exactly its own bytes,
/// whatever its length, and a difference at any position must be seen (a guard for any faster comparison).
@Suite struct KeyComparisonTests {
  @Test func everyLengthAndEveryPosition() {
    for length in 1...40 {
      let name = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      let text = String(decoding: name, as: UTF8.self)
      for position in -1..<length {
        var candidate = name
        if position >= 0 { candidate[position] ^= 0x01 }
        // The name sits inside a larger frame, so that a read past either end would meet other bytes.
        let frame = Array("{\"".utf8) + candidate + Array("\":1}".utf8)
        frame.withUnsafeBufferPointer { buffer in
          let parser = JSONParser(buffer: buffer, limits: .default)
          let key = JSONParser.Key(start: 2, count: length)
          let same = position < 0
          #expect(parser.keyIs(key, text) == same, "length \(length), byte \(position)")
          name.withUnsafeBufferPointer { #expect(parser.keyIs(key, $0) == same) }
          // Another length never matches, even when the bytes agree on the shorter one.
          #expect(!parser.keyIs(JSONParser.Key(start: 2, count: length - 1), text))
        }
      }
    }
  }
}
