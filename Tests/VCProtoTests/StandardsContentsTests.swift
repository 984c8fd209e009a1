import Foundation
import Testing

/// STANDARDS.md's table of contents links every section, in order, by its explicit anchor
/// (`tools/standards_toc.py` writes it; `tools/regenerate.sh` runs that).
@Suite struct StandardsContentsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func everySectionHasAnAnchorAndIsLinkedInOrder() throws {
    let text = try String(contentsOf: Self.root.appendingPathComponent("STANDARDS.md"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let headings = lines.filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
    #expect(headings.count >= 10)
    var expected: [String] = []
    for heading in headings {
      // `## <a id="limits"></a>Limits`: the anchor is explicit, so renaming a heading keeps its citations.
      let open = "<a id=\""
      let close = "\"></a>"
      guard heading.hasPrefix(open), let end = heading.range(of: close) else {
        Issue.record("STANDARDS.md heading without an explicit anchor: \(heading)")
        continue
      }
      let anchor = heading[heading.index(heading.startIndex, offsetBy: open.count)..<end.lowerBound]
      expected.append("- [\(heading[end.upperBound...])](#\(anchor))")
    }
    let begin = try #require(lines.firstIndex(of: "<!-- contents: begin -->"))
    let end = try #require(lines.firstIndex(of: "<!-- contents: end -->"))
    let links = lines[begin..<end].filter { $0.hasPrefix("- [") }
    #expect(links == expected)
  }
}
