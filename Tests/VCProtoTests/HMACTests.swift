import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

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

/// HKDF-SHA256 against RFC 5869 appendix A (the RFC's own figures), both paths.
@Suite struct HKDFTests {
  func hex(_ s: String) -> [UInt8] { Hex.decode(s)! }

  /// Test cases 1-3: IKM, salt, info, L, PRK, OKM as printed in RFC 5869 A.1-A.3.
  static let rfc5869: [(Int, String, String, String, Int, String, String)] = [
    (
      1, String(repeating: "0b", count: 22), "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", 42,
      "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
      "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
    ),
    (
      2,
      "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f",
      "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
      "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
      82, "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
      "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"
    ),
    (
      3, String(repeating: "0b", count: 22), "", "", 42,
      "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
      "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
    ),
  ]

  @Test func rfc5869() {
    for (number, ikm, salt, info, length, prk, okm) in Self.rfc5869 {
      #expect(Hex.encode(HKDFSHA256.extract(salt: hex(salt), inputKeyMaterial: hex(ikm))) == prk, "test case \(number)")
      let portable = HKDFSHA256.portable(inputKeyMaterial: hex(ikm), salt: hex(salt), info: hex(info), length: length)
      let platform = HKDFSHA256.derive(inputKeyMaterial: hex(ikm), salt: hex(salt), info: hex(info), length: length)
      #expect(Hex.encode(portable) == okm, "test case \(number)")
      #expect(platform == portable, "test case \(number)")
    }
  }

  /// Output lengths at the block boundaries and the maximum: each is a prefix of the longest output
  /// (T(1) | T(2) | ... does not depend on L), and the 255th block is the last.
  @Test func lengths() {
    let ikm = Array("key".utf8)
    let longest = HKDFSHA256.portable(inputKeyMaterial: ikm, salt: [1], info: [2], length: HKDFSHA256.maximumLength)
    #expect(longest.count == 8160)
    for length in [0, 1, 31, 32, 33, 64, 65, 8159] {
      let out = HKDFSHA256.portable(inputKeyMaterial: ikm, salt: [1], info: [2], length: length)
      #expect(out == Array(longest.prefix(length)), "L = \(length)")
      #expect(HKDFSHA256.derive(inputKeyMaterial: ikm, salt: [1], info: [2], length: length) == out, "L = \(length)")
    }
    // An empty salt is 32 zero bytes (RFC 5869 section 2.2).
    #expect(
      HKDFSHA256.portable(inputKeyMaterial: ikm, salt: [], info: [], length: 32)
        == HKDFSHA256.portable(inputKeyMaterial: ikm, salt: Array(repeating: 0, count: 32), info: [], length: 32))
  }
}
