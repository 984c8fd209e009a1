import Foundation
import Testing

@testable import VCProto

/// STANDARDS.md section 15 rule 9 writes out which frame types answer which request; the client
/// engine's table (`ClientEngine.answerTypes`) must say exactly the same, so neither drifts.
@Suite struct StandardsAnswerTypesTests {
  /// The rule's list, read from the text: `a` → `x` or `y`; entries separated by `;`, several
  /// requests sharing answers joined by `and`.
  static func documentedAnswerTypes() throws -> [String: [String]] {
    let text = try String(
      contentsOf: StandardsContentsTests.root.appendingPathComponent("STANDARDS.md"), encoding: .utf8)
    let section = try #require(text.range(of: "## 15. Conversation state machine"))
    let rule = try #require(
      text.range(of: "9. **Requests and their answers.**", range: section.upperBound..<text.endIndex))
    let start = try #require(text.range(of: "arrives answers):", range: rule.upperBound..<text.endIndex))
    let end = try #require(text.range(of: ". Such a request waits", range: start.upperBound..<text.endIndex))
    let list = text[start.upperBound..<end.lowerBound].split(whereSeparator: \.isWhitespace).joined(separator: " ")
    func names(_ part: Substring) -> [String] {
      part.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
        String($0.element)
      }
    }
    var table: [String: [String]] = [:]
    for entry in list.split(separator: ";") {
      let sides = entry.split(separator: "→")
      try #require(sides.count == 2, "an entry is `request` → `answer`: \(entry)")
      let answers = names(sides[1])
      #expect(!answers.isEmpty, "no answer type in \(entry)")
      for request in names(sides[0]) {
        #expect(table[request] == nil, "\(request) listed twice")
        table[request] = answers
      }
    }
    return table
  }

  @Test func ruleNineListsTheEnginesAnswerTypes() throws {
    let documented = try Self.documentedAnswerTypes()
    #expect(documented.count >= 10, "the list was read")
    #expect(documented == ClientEngine.answerTypes)
  }
}
