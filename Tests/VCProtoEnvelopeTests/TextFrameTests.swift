import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `EnvelopeCodec.open(textFrame:)`: the receiver rule of STANDARDS.md#compression, with the
/// package's own strict JSON reader.
@Suite struct TextFrameTests {
  private let codec = EnvelopeCodec()
  private let inner = Array(#"{"type":"ping"}"#.utf8)
  /// `{"type":"ping"}` as a zlib stream at level 6 (STANDARDS.md's example).
  private let data = "eJyrViqpLEhVslIqyMxLV6oFACm9BSs="

  private func open(_ text: String) throws(EnvelopeError) -> [UInt8] {
    try codec.open(textFrame: Array(text.utf8))
  }

  @Test func sendersWriteTheCompactCanonicalForm() throws {
    let sealed = try #require(try EnvelopeCodec(configuration: .init(threshold: 0)).seal(inner, form: .text))
    #expect(
      String(decoding: sealed, as: UTF8.self)
        == #"{"type":"compressed","encoding":"zlib","length":15,"data":"\#(data)"}"#)
    #expect(try codec.open(textFrame: sealed) == inner)
  }

  @Test func specExamplesAreWhatTheCodecProduces() throws {
    let spec = try String(contentsOf: packageRoot().appendingPathComponent("STANDARDS.md"), encoding: .utf8)
    let sender = EnvelopeCodec(configuration: .init(threshold: 0))
    let text = String(decoding: try #require(try sender.seal(inner, form: .text)), as: UTF8.self)
    #expect(spec.contains("`\(text)`"), "\(text)")
    let binary = try #require(try sender.seal(inner, form: .binary))
    let hex = binary.map { String(format: "%02x", $0) }.joined(separator: " ")
    #expect(spec.contains("`\(hex)`"), "\(hex)")
  }

  @Test func receiversAcceptAnyMemberOrder() throws {
    let members = [
      #""type":"compressed""#, #""encoding":"zlib""#, #""length":15"#, #""data":"\#(data)""#,
    ]
    // All 24 orders.
    func permutations(_ items: [String]) -> [[String]] {
      guard items.count > 1 else { return [items] }
      return items.indices.flatMap { i in
        permutations(Array(items[..<i] + items[(i + 1)...])).map { [items[i]] + $0 }
      }
    }
    let orders = permutations(members)
    #expect(orders.count == 24)
    for order in orders {
      #expect(try open("{" + order.joined(separator: ",") + "}") == inner, "\(order.joined())")
    }
  }

  @Test func receiversAcceptWhitespaceAndEscapes() throws {
    #expect(
      try open(
        " \n{ \"data\" :\t\"\(data)\" ,\r\n \"length\" : 15 , "
          + "\"encoding\": \"zlib\", \"type\":\"compressed\" }\n ") == inner)
    #expect(try open(#"{"type":"compr\u0065ssed","encoding":"\u007alib","length":15,"data":"\#(data)"}"#) == inner)
    #expect(
      try open(#"{"type":"compressed","encoding":"zlib","length":15,"data":"eJyrViqpLEhVslIqyMxLV6oFACm9BSs\u003d"}"#)
        == inner)
  }

  @Test func receiversIgnoreOtherMembers() throws {
    #expect(
      try open(
        #"{"type":"compressed","v":2,"encoding":"zlib","meta":{"a":[1,null,{"b":true}]},"length":15,"data":"\#(data)","z":null}"#
      ) == inner)
  }

  @Test func malformedFrames() {
    let frames = [
      "",  // not JSON
      "{",  // cut short
      #"{"type":"compressed","encoding":"zlib","length":15,"data":"\#(data)"} x"#,  // trailing data
      #"["compressed"]"#,  // not an object
      #""compressed""#,
      #"{"encoding":"zlib","length":15,"data":"\#(data)"}"#,  // no type
      #"{"type":"Compressed","encoding":"zlib","length":15,"data":"\#(data)"}"#,  // other type
      #"{"type":null,"encoding":"zlib","length":15,"data":"\#(data)"}"#,
      #"{"type":"compressed","type":"compressed","encoding":"zlib","length":15,"data":"\#(data)"}"#,
      #"{"type":"compressed","encoding":"zlib","length":15,"data":"\#(data)","data":"\#(data)"}"#,
      #"{"type":"compressed","length":15,"data":"\#(data)"}"#,  // no encoding
      #"{"type":"compressed","encoding":["zlib"],"length":15,"data":"\#(data)"}"#,
      #"{"type":"compressed","encoding":"zlib","data":"\#(data)"}"#,  // no length
      #"{"type":"compressed","encoding":"zlib","length":15.0,"data":"\#(data)"}"#,
      #"{"type":"compressed","encoding":"zlib","length":1.5e1,"data":"\#(data)"}"#,
      #"{"type":"compressed","encoding":"zlib","length":"15","data":"\#(data)"}"#,
      #"{"type":"compressed","encoding":"zlib","length":true,"data":"\#(data)"}"#,
      #"{"type":"compressed","encoding":"zlib","length":-1,"data":"\#(data)"}"#,
      #"{"type":"compressed","encoding":"zlib","length":4294967296,"data":"\#(data)"}"#,
      #"{"type":"compressed","encoding":"zlib","length":99999999999999999999,"data":"\#(data)"}"#,
      #"{"type":"compressed","encoding":"zlib","length":15}"#,  // no data
      #"{"type":"compressed","encoding":"zlib","length":15,"data":null}"#,
      #"{"type":"compressed","encoding":"zlib","length":15,"data":["\#(data)"]}"#,
      "{\"type\":\"compressed\",\"encoding\":\"zlib\",\"length\":15,\"data\":\"\(data)\u{1}\"}",  // raw control
    ]
    for frame in frames {
      assertEnvelopeError(.malformed) { () throws(EnvelopeError) in try open(frame) }
    }
    // Invalid UTF-8 and a byte-order mark are not JSON either.
    for bytes in [[0xEF, 0xBB, 0xBF] + Array("{}".utf8), Array(#"{"type":"compressed","x":""#.utf8) + [0xC0, 0x80]] {
      assertEnvelopeError(.malformed) { () throws(EnvelopeError) in try codec.open(textFrame: bytes) }
    }
  }

  @Test func fieldsAreCheckedInSpecOrderWhateverTheWireOrder() {
    // Unknown encoding is found before a missing data member, even when data comes first.
    assertEnvelopeError(.unknownEncoding) { () throws(EnvelopeError) in
      try open(#"{"length":15,"encoding":"deflate","type":"compressed"}"#)
    }
    // A bad length is malformed before bad base64 is looked at.
    assertEnvelopeError(.malformed) { () throws(EnvelopeError) in
      try open(#"{"data":"!!","length":-1,"encoding":"zlib","type":"compressed"}"#)
    }
    // An over-cap length is refused before bad base64 is decoded.
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try open(#"{"data":"!!","length":16777217,"encoding":"zlib","type":"compressed"}"#)
    }
    assertEnvelopeError(.invalidBase64) { () throws(EnvelopeError) in
      try open(#"{"data":"!!","length":15,"encoding":"zlib","type":"compressed"}"#)
    }
  }

  @Test func oversizedFramesAreRefusedBeforeParsing() throws {
    let limits = EnvelopeLimits(maxCompressedSize: 3000)
    let small = EnvelopeCodec(limits: limits)
    let bound = small.maxTextFrameSize
    #expect(bound == 4004 + 65_536)
    // A frame one byte over the bound is refused even though it is not JSON at all.
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try small.open(textFrame: [UInt8](repeating: 0x20, count: bound + 1))
    }
    assertEnvelopeError(.malformed) { () throws(EnvelopeError) in
      try small.open(textFrame: [UInt8](repeating: 0x20, count: bound))
    }
    // A data string longer than the bound is too large, not malformed.
    let huge = String(repeating: "A", count: bound)
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try small.open(textFrame: Array(#"{"type":"compressed","encoding":"zlib","length":1,"data":"\#(huge)"}"#.utf8))
    }
    #expect(EnvelopeCodec(limits: .init(maxCompressedSize: .max)).maxTextFrameSize == .max)
  }

  @Test func openTextEnvelopeFromAParsedObject() throws {
    let sealed = try #require(try EnvelopeCodec(configuration: .init(threshold: 0)).seal(inner, form: .text))
    let value = try JSONReader().parse(sealed)
    #expect(EnvelopeCodec.isTextEnvelope(value))
    #expect(try codec.open(textEnvelope: try #require(value.objectValue)) == inner)
    // The parsed-object entry point checks `type` itself.
    var other = try #require(value.objectValue)
    other["type"] = "Compressed"
    assertEnvelopeError(.malformed) { () throws(EnvelopeError) in try codec.open(textEnvelope: other) }
    other["type"] = nil
    assertEnvelopeError(.malformed) { () throws(EnvelopeError) in try codec.open(textEnvelope: other) }
    #expect(!(EnvelopeCodec.isTextEnvelope(try JSONReader().parse(#"{"type":"ping"}"#))))
    #expect(!(EnvelopeCodec.isTextEnvelope(try JSONReader().parse(#"["compressed"]"#))))
  }
}
