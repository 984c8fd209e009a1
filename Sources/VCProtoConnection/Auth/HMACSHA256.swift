import VCProtoCore
import VCProtoJSON

#if canImport(CryptoKit)
  import CryptoKit
#endif

/// HMAC-SHA256 (RFC 2104) over arbitrary key and message bytes: CryptoKit where it exists, a small
/// portable implementation elsewhere (proven against RFC 4231 and Python's `hmac` in the tests and CI).
package enum HMACSHA256 {
  /// The 32-byte authentication code of `message` under `key`.
  package static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
    #if canImport(CryptoKit)
      let code = HMAC<CryptoKit.SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
      return Array(code)
    #else
      return portable(key: key, message: message)
    #endif
  }

  /// The portable implementation (always available, so it is tested on every platform).
  package static func portable(key: [UInt8], message: [UInt8]) -> [UInt8] {
    let blockSize = 64
    var block = key.count > blockSize ? SHA256.hash(key) : key
    block += [UInt8](repeating: 0, count: blockSize - block.count)
    let inner = SHA256.hash(block.map { $0 ^ 0x36 } + message)
    return SHA256.hash(block.map { $0 ^ 0x5c } + inner)
  }
}
