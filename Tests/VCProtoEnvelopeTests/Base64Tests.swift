import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct Base64Tests {
  private let codec = EnvelopeCodec()

  @Test func encodeMatchesFoundation() {
    for count in 0..<300 {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 11) }
      var out: [UInt8] = []
      bytes.withUnsafeBufferPointer { Base64.encode($0, appendingTo: &out) }
      #expect(String(decoding: out, as: UTF8.self) == Data(bytes).base64EncodedString())
      #expect(Base64.decode(String(decoding: out, as: UTF8.self)) == bytes)
    }
  }

  @Test func strictDecodeRejects() {
    let rejected = [
      "QUJD RA==",  // space
      "QUJDRA==\n",  // trailing newline
      "QUJD\r\nRA==",  // CRLF
      "\tQUJDRA==",  // tab
      "QUJDRA",  // missing padding
      "QUJDRA=",  // short padding
      "QUJDRA===",  // excess padding
      "QUJDR===",  // three '='
      "QU=DRA==",  // '=' in the middle
      "=QUJDRA=",  // leading '='
      "QUJDRB==",  // non-zero padding bits (decodes to "ABCD" leniently)
      "QUJDRE=",  // wrong length
      "QUJDREU=A",  // data after padding
      "QUJ-RA==",  // URL-safe alphabet
      "QUJ_RA==",
      "QUJDRA==\u{0}",  // NUL
      "QUJDRÄ==",  // non-ASCII
      "Q",
    ]
    for text in rejected {
      #expect(Base64.decode(text) == nil, "accepted \(text.debugDescription)")
      assertEnvelopeError(.invalidBase64) { () throws(EnvelopeError) in
        try codec.open(text: "zlib", length: 4, data: text)
      }
    }
    // The canonical forms decode.
    #expect(Base64.decode("QUJDRA==") == Array("ABCD".utf8))
    #expect(Base64.decode("QUJDREU=") == Array("ABCDE".utf8))
    #expect(Base64.decode("QUJDREVG") == Array("ABCDEF".utf8))
    #expect(Base64.decode("") == [])
  }

  @Test func foundationIsLenientWhereWeAreNot() {
    // Documents why the envelope does not use Data(base64Encoded:): it accepts non-zero
    // padding bits. (If Foundation ever tightens, this assertion is simply informative.)
    let lenient = Data(base64Encoded: "QUJDRB==")
    #expect(Base64.decode("QUJDRB==") == nil)
    if let lenient { #expect(Array(lenient) == Array("ABCD".utf8)) }
  }

  @Test func malformedLength() throws {
    let data = Data(compressed(Array("{}".utf8))).base64EncodedString()
    for length in [-1, Int(UInt32.max) + 1, Int.min, Int.max] {
      assertEnvelopeError(.malformed) { () throws(EnvelopeError) in
        try codec.open(text: "zlib", length: length, data: data)
      }
    }
    #expect(try codec.open(text: "zlib", length: 2, data: data) == Array("{}".utf8))
    // UInt32.max itself is well-formed, just over the default cap.
    assertEnvelopeError(.tooLarge) { () throws(EnvelopeError) in
      try codec.open(text: "zlib", length: Int(UInt32.max), data: data)
    }
  }

  @Test func missingOrMistypedFieldsOfATextFrameAreMalformed() throws {
    let frames = [
      #"{"type":"compressed","encoding":"zlib","length":2}"#,
      #"{"type":"compressed","encoding":"zlib","length":"2","data":"eJyrrgUAAXUA+Q=="}"#,
      #"{"type":"compressed","encoding":"zlib","length":2.0,"data":"eJyrrgUAAXUA+Q=="}"#,
      #"{"type":"compressed","encoding":1,"length":2,"data":"eJyrrgUAAXUA+Q=="}"#,
    ]
    for frame in frames {
      assertEnvelopeError(.malformed) { () throws(EnvelopeError) in
        try codec.open(textFrame: Array(frame.utf8))
      }
    }
    let good = #"{"type":"compressed","encoding":"zlib","length":2,"data":"eJyrrgUAAXUA+Q=="}"#
    #expect(try codec.open(textFrame: Array(good.utf8)) == Array("{}".utf8))
  }
}
