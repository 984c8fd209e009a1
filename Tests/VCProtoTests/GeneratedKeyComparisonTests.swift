import Testing

@testable import VCProtoCodegen
@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Member names are compared as sequences of Unicode scalars (STANDARDS.md#exact-member-names) by the
/// validator and by every generated `reading(_:)` (through its reader's `keyIs`), never with Swift's `==`.
@Suite struct GeneratedKeyComparisonTests {
  /// Why `==` is not enough, even after the generated code's dispatch on the key's UTF-8 length:
  /// String equality is canonical equivalence, and some canonically equivalent names have the same
  /// length. U+0340 COMBINING GRAVE TONE MARK decomposes to U+0300 COMBINING GRAVE ACCENT, both two
  /// UTF-8 bytes (Unicode's UnicodeData.txt, field 5 of U+0340). The singletons that decompose to
  /// ASCII (U+212A KELVIN SIGN to `K`, U+037E to `;`, U+1FEF to the backquote) are longer than their
  /// ASCII equivalent, which is why no name of today's all-ASCII catalog is affected.
  @Test func stringEqualityIsCanonicalEquivalence() {
    let (tone, accent) = ("a\u{0340}", "a\u{0300}")
    #expect(tone == accent)
    #expect(tone.utf8.count == accent.utf8.count)
    #expect(!tone.hasSameScalars(as: accent))
    #expect("\u{212A}" == "K" && "\u{212A}".utf8.count == 3)
    #expect("\u{037E}" == ";" && "\u{037E}".utf8.count == 2)
    #expect("\u{1FEF}" == "`" && "\u{1FEF}".utf8.count == 3)
  }

  /// The generator matches every declared member (and `type`) with the reader's `keyIs`, never `==`:
  /// for the whole catalog, and for a member name that has a same-length canonical equivalent.
  @Test func generatedDecoderComparesScalars() {
    let code = SwiftModelGenerator().files().map { $0.contents }.joined()
    #expect(!code.contains("key == "), "a member key compared with String ==")
    #expect(code.contains("r.keyIs(key, \"type\")"))
    let accented = SwiftModelGenerator().structDecl(
      name: "Accented", doc: "A member name that is not ASCII.",
      fields: [FieldSpec("a\u{0300}", .integer(minimum: nil))],
      wireType: nil)
    #expect(accented.contains("r.keyIs(key, \"a\u{0300}\")"))
    #expect(!accented.contains("key == "))
  }

  /// The tree reader's `keyIs` compares UTF-8 bytes: a canonically equivalent name is another name.
  /// (The bytes reader leaves every name that is not plain ASCII to the tree path.)
  @Test func theTreeReaderMatchesExactScalars() {
    let declared: StaticString = "a\u{0300}"
    let tree = JSONTreeReader(.null)
    #expect(tree.keyIs("a\u{0300}", declared))
    #expect(!tree.keyIs("a\u{0340}", declared))
  }
}
