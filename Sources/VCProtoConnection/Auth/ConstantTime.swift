import VCProtoCore
import VCProtoJSON

/// Compares two byte strings in time that depends only on their lengths, never on where they differ.
///
/// Every byte of the longer input is visited; a length difference is folded into the result, so an
/// attacker timing the comparison of a guessed MAC learns nothing about how much of it was right.
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | UInt8(a.count == b.count ? 0 : 1)
  let n = max(a.count, b.count)
  for i in 0..<n {
    let x = i < a.count ? a[i] : 0
    let y = i < b.count ? b[i] : 0
    difference |= x ^ y
  }
  return difference == 0
}
