import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `String.hasSameScalars(asASCII:)` (equal UTF-8 lengths and `==`) is as exact as the byte
/// comparison for an ASCII name, although `==` is canonical equivalence.
@Suite struct ASCIINameComparisonTests {
  /// Singletons that `==` takes for an ASCII letter or sign, and a key whose representation is not
  /// the literal's (a native string with spare capacity).
  @Test func canonicalSingletonsAreNotTheName() {
    // The cases the comparison must survive: `==` says these are equal.
    #expect("\u{212A}ey" == "Key")
    #expect("a\u{37E}" == "a;")
    for (key, name) in [("\u{212A}ey", "Key"), ("a\u{37E}", "a;"), ("\u{1FEF}", "`"), ("offse\u{74}\u{301}", "offset")]
    {
      #expect(!key.hasSameScalars(asASCII: name), "\(key.unicodeScalars.map(\.value))")
      #expect(key.hasSameScalars(asASCII: name) == key.hasSameScalars(as: name))
    }
    var spare = String()
    spare.reserveCapacity(64)
    spare.append("session_id")
    #expect(spare.hasSameScalars(asASCII: "session_id"))
    #expect(!spare.hasSameScalars(asASCII: "session_ix"))
    #expect(!"session_i".hasSameScalars(asASCII: "session_id"))
  }

  /// The reason it is exact, checked over every Unicode scalar: one that is not ASCII but whose
  /// canonical decomposition is all ASCII is a single ASCII scalar spelled with more UTF-8 bytes.
  @Test(.tags(.slow), .enabled(if: slowSuitesRun)) func everyScalarEquivalentToASCIIIsLonger() {
    var singletons = 0
    for value in UInt32(0x80)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let text = String(Character(scalar))
      let decomposed = text.decomposedStringWithCanonicalMapping
      guard decomposed.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
      singletons += 1
      #expect(decomposed.unicodeScalars.count == 1, "U+\(String(value, radix: 16))")
      #expect(decomposed.utf8.count < text.utf8.count, "U+\(String(value, radix: 16))")
      #expect(!text.hasSameScalars(asASCII: decomposed))
    }
    // U+037E, U+1FEF, U+212A at least (Unicode's canonical singletons onto ASCII).
    #expect(singletons >= 3)
  }

  /// The representation fast path of `hasSameScalars(as:)` only ever says "same" for the same string;
  /// one text in two buffers, or canonically equivalent texts, go on to the bytes.
  @Test func sameRepresentationIsOnlyASufficientCondition() {
    let long = String(repeating: "session-", count: 4)
    var other = String()
    other.reserveCapacity(64)
    other.append(long)
    #expect(String.sameRepresentation("offset", "offset"))
    #expect(String.sameRepresentation(long, long))
    #expect(!String.sameRepresentation(long, other))
    #expect(long.hasSameScalars(as: other))
    #expect(!String.sameRepresentation("offset", "offsex"))
    #expect(!String.sameRepresentation("\u{e9}", "e\u{301}"))
    #expect(!"\u{e9}".hasSameScalars(as: "e\u{301}"))
  }
}
