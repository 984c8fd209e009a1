import Testing

@testable import VCProto

/// SHA-256 and HMAC-SHA256 against published figures, and the constant-time comparison.
@Suite struct HMACTests {
  func hex(_ s: String) -> [UInt8] { Hex.decode(s)! }

  @Test func sha256KnownAnswers() {
    #expect(Hex.encode(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      Hex.encode(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      Hex.encode(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      Hex.encode(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// RFC 4231 test cases 1-7 (HMAC-SHA-256 column), with the RFC's numbering.
  static let rfc4231: [(Int, String, String, String)] = [
    (
      1, String(repeating: "0b", count: 20), "4869205468657265",
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    ),
    (
      2, "4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    ),
    (
      3, String(repeating: "aa", count: 20), String(repeating: "dd", count: 50),
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
    ),
    (
      4, "0102030405060708090a0b0c0d0e0f10111213141516171819", String(repeating: "cd", count: 50),
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
    ),
    (
      5, String(repeating: "0c", count: 20), "546573742057697468205472756e636174696f6e",
      "a3b6167473100ee06e0c796c2955552b"
    ),  // truncated to 128 bits, as the RFC gives it
    (
      6, String(repeating: "aa", count: 131),
      "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    ),
    (
      7, String(repeating: "aa", count: 131),
      "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
    ),
  ]

  @Test func rfc4231() {
    for (number, key, data, expected) in Self.rfc4231 {
      let portable = Hex.encode(HMACSHA256.portable(key: hex(key), message: hex(data)))
      let platform = Hex.encode(HMACSHA256.authenticationCode(key: hex(key), message: hex(data)))
      #expect(portable.hasPrefix(expected), "test case \(number)")
      #expect(platform == portable, "test case \(number)")
    }
  }

  @Test func constantTimeComparison() {
    #expect(constantTimeEquals([], []))
    #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
    #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
    #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
    #expect(!constantTimeEquals([1, 2], [1, 2, 0]))  // a zero tail does not hide the length difference
    #expect(!constantTimeEquals([0], []))
    #expect(!constantTimeEquals([0x80], [0x00]))
  }

  @Test func hexIsStrictLowercase() {
    #expect(Hex.encode([0x00, 0xAB, 0xFF]) == "00abff")
    #expect(Hex.decode("00abff") == [0x00, 0xAB, 0xFF])
    #expect(Hex.decode("00ABFF") == nil)
    #expect(Hex.decode("abc") == nil)
    #expect(Hex.decode("zz") == nil)
  }
}
