import Foundation
import Testing

/// STANDARDS.md's table of contents links every section, in order, by its GitHub anchor
/// (`tools/standards_toc.py` writes it; `tools/regenerate.sh` runs that).
@Suite struct StandardsContentsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// GitHub's anchor for a heading, written independently of the Python script: lowercase, drop every
  /// character that is not a letter, digit, space, `-` or `_`, spaces to `-`.
  static func anchor(_ heading: String) -> String {
    String(
      heading.lowercased().unicodeScalars.filter {
        CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
      }.map { $0 == " " ? "-" : Character($0) })
  }

  @Test func everySectionIsLinkedInOrder() throws {
    let text = try String(contentsOf: Self.root.appendingPathComponent("STANDARDS.md"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let headings = lines.filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
    #expect(headings.count >= 14)
    let begin = try #require(lines.firstIndex(of: "<!-- contents: begin -->"))
    let end = try #require(lines.firstIndex(of: "<!-- contents: end -->"))
    let links = lines[begin..<end].filter { $0.hasPrefix("- [") }
    #expect(links == headings.map { "- [\($0)](#\(Self.anchor($0)))" })
  }
}
