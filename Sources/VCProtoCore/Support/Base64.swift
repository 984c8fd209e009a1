import VCProtoJSON

/// Standard base64 (RFC 4648 section 4) with `=` padding, in its strict canonical form.
///
/// Foundation's `Data(base64Encoded:)` is not used because it accepts non-zero padding
/// bits, so more than one string would decode to the same bytes. This decoder accepts
/// exactly the strings the encoder produces.
package enum Base64 {
  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  private static let invalid: UInt8 = 0xFF

  private static let decodeTable: [UInt8] = {
    var table = [UInt8](repeating: invalid, count: 256)
    for (index, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(index) }
    return table
  }()

  /// Length of the encoding of `count` bytes.
  package static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

  /// The encoding of `bytes` (for capture writers in this package).
  package static func encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    bytes.withUnsafeBufferPointer { encode($0, appendingTo: &output) }
    return String(decoding: output, as: UTF8.self)
  }

  /// Upper bound of the decoded length of an `encodedCount`-character string.
  package static func maxDecodedCount(_ encodedCount: Int) -> Int { encodedCount / 4 * 3 }

  /// Appends the encoding of `bytes` to `output`.
  package static func encode(_ bytes: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8]) {
    output.reserveCapacity(output.count + encodedCount(bytes.count))
    var index = 0
    while index + 3 <= bytes.count {
      let value =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      output.append(alphabet[Int(value >> 18 & 0x3F)])
      output.append(alphabet[Int(value >> 12 & 0x3F)])
      output.append(alphabet[Int(value >> 6 & 0x3F)])
      output.append(alphabet[Int(value & 0x3F)])
      index += 3
    }
    switch bytes.count - index {
    case 1:
      let value = UInt32(bytes[index]) << 16
      output.append(alphabet[Int(value >> 18 & 0x3F)])
      output.append(alphabet[Int(value >> 12 & 0x3F)])
      output.append(UInt8(ascii: "="))
      output.append(UInt8(ascii: "="))
    case 2:
      let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
      output.append(alphabet[Int(value >> 18 & 0x3F)])
      output.append(alphabet[Int(value >> 12 & 0x3F)])
      output.append(alphabet[Int(value >> 6 & 0x3F)])
      output.append(UInt8(ascii: "="))
    default:
      break
    }
  }

  /// Decodes strict canonical base64; `nil` for any deviation: characters outside the
  /// alphabet (including whitespace and line breaks), a length that is not a multiple of
  /// four, misplaced or excess `=`, missing padding, or non-zero padding bits.
  package static func decode(_ text: String) -> [UInt8]? {
    var native = text
    native.makeContiguousUTF8()
    if let result = native.utf8.withContiguousStorageIfAvailable({ decode($0) }) {
      return result
    }
    return Array(native.utf8).withUnsafeBufferPointer { decode($0) }
  }

  /// Decodes strict canonical base64 from ASCII bytes; see the `String` overload.
  package static func decode(_ chars: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    guard chars.count % 4 == 0 else { return nil }
    if chars.isEmpty { return [] }
    var padding = 0
    if chars[chars.count - 1] == UInt8(ascii: "=") { padding += 1 }
    if chars[chars.count - 2] == UInt8(ascii: "=") { padding += 1 }
    let table = decodeTable
    var output = [UInt8]()
    output.reserveCapacity(chars.count / 4 * 3 - padding)
    let fullEnd = chars.count - (padding > 0 ? 4 : 0)
    var index = 0
    while index < fullEnd {
      let a = table[Int(chars[index])]
      let b = table[Int(chars[index + 1])]
      let c = table[Int(chars[index + 2])]
      let d = table[Int(chars[index + 3])]
      guard (a | b | c | d) & 0xC0 == 0 else { return nil }
      let value = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
      output.append(UInt8(truncatingIfNeeded: value >> 16))
      output.append(UInt8(truncatingIfNeeded: value >> 8))
      output.append(UInt8(truncatingIfNeeded: value))
      index += 4
    }
    guard padding > 0 else { return output }
    let a = table[Int(chars[index])]
    let b = table[Int(chars[index + 1])]
    guard (a | b) & 0xC0 == 0 else { return nil }
    if padding == 2 {
      // "xx==": 12 bits carry one byte; the low 4 bits must be zero.
      guard b & 0x0F == 0 else { return nil }
      output.append(a << 2 | b >> 4)
    } else {
      // "xxx=": 18 bits carry two bytes; the low 2 bits must be zero.
      let c = table[Int(chars[index + 2])]
      guard c & 0xC0 == 0, c & 0x03 == 0 else { return nil }
      output.append(a << 2 | b >> 4)
      output.append((b & 0x0F) << 4 | c >> 2)
    }
    return output
  }
}
