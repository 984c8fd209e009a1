/// Strict standard base64 (RFC 4648 section 4, `+` and `/`, `=` padding required); anything else
/// (whitespace, URL-safe letters, bad padding, non-zero pad bits) is rejected.
enum Base64Decoder {
  private static let table: [UInt8] = {
    var t = [UInt8](repeating: 0xFF, count: 256)
    for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
      t[Int(c)] = UInt8(i)
    }
    return t
  }()

  /// The decoded bytes, or `nil` when `text` is not strict base64.
  static func decode(_ text: String) -> [UInt8]? {
    let input = Array(text.utf8)
    guard input.count % 4 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(input.count / 4 * 3)
    var i = 0
    while i < input.count {
      let last = i + 4 == input.count
      let c2 = input[i + 2]
      let c3 = input[i + 3]
      let pad = (c3 == UInt8(ascii: "=") ? 1 : 0) + (c2 == UInt8(ascii: "=") ? 1 : 0)
      guard pad == 0 || last, !(c2 == UInt8(ascii: "=") && c3 != UInt8(ascii: "=")) else { return nil }
      let a = table[Int(input[i])]
      let b = table[Int(input[i + 1])]
      let c = pad >= 2 ? 0 : table[Int(c2)]
      let d = pad >= 1 ? 0 : table[Int(c3)]
      guard a != 0xFF, b != 0xFF, c != 0xFF, d != 0xFF else { return nil }
      let n = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
      out.append(UInt8(n >> 16 & 0xFF))
      if pad < 2 { out.append(UInt8(n >> 8 & 0xFF)) }
      if pad < 1 { out.append(UInt8(n & 0xFF)) }
      // Canonical form only: the bits a padded group drops must be zero.
      if pad == 1, d == 0, c & 0x03 != 0 { return nil }
      if pad == 2, b & 0x0F != 0 { return nil }
      i += 4
    }
    return out
  }
}
