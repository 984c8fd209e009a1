import VCProtoCore
import VCProtoJSON

#if canImport(CryptoKit)
  import CryptoKit
#endif

/// HKDF with SHA-256 (RFC 5869): CryptoKit's `HKDF<SHA256>` where CryptoKit exists, a portable
/// implementation over `HMACSHA256.portable(key:message:)` elsewhere (proven against RFC 5869 test
/// cases 1-3 and Python's `hmac` in the tests and CI).
package enum HKDFSHA256 {
  /// The most output one derivation gives: 255 blocks of 32 bytes (RFC 5869 section 2.3).
  package static let maximumLength = 255 * 32

  /// `length` bytes of output keying material from `inputKeyMaterial`, `salt` and `info`.
  /// An empty salt means 32 zero bytes, as RFC 5869 says (HMAC pads either to the same block).
  package static func derive(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
    precondition((0...maximumLength).contains(length), "HKDF-SHA256 gives at most 8160 bytes")
    #if canImport(CryptoKit)
      let key = HKDF<CryptoKit.SHA256>.deriveKey(
        inputKeyMaterial: SymmetricKey(data: inputKeyMaterial), salt: salt, info: info, outputByteCount: length)
      return key.withUnsafeBytes { Array($0) }
    #else
      return portable(inputKeyMaterial: inputKeyMaterial, salt: salt, info: info, length: length)
    #endif
  }

  /// The portable implementation (always available, so it is tested on every platform).
  package static func portable(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
    precondition((0...maximumLength).contains(length), "HKDF-SHA256 gives at most 8160 bytes")
    return expand(pseudorandomKey: extract(salt: salt, inputKeyMaterial: inputKeyMaterial), info: info, length: length)
  }

  /// HKDF-Extract: PRK = HMAC-SHA256(salt, IKM).
  package static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
    HMACSHA256.portable(key: salt, message: inputKeyMaterial)
  }

  /// HKDF-Expand: T(i) = HMAC-SHA256(PRK, T(i-1) | info | i), the first `length` bytes of T(1) | T(2) | ...
  package static func expand(pseudorandomKey prk: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(length + 32)
    var block: [UInt8] = []
    var counter: UInt8 = 1
    while output.count < length {
      block = HMACSHA256.portable(key: prk, message: block + info + [counter])
      output += block
      counter &+= 1
    }
    return Array(output.prefix(length))
  }
}
