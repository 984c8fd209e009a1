import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// STANDARDS.md#requests shows which frame types answer which request, in a table generated
/// from the catalog; the client engine's table (`ClientEngine.answerTypes`) must say exactly the same,
/// so neither drifts.
@Suite struct StandardsAnswerTypesTests {
  /// The rule's table, read from the text: per row the request, then the types that answer it and
  /// those that refuse it (`error`, refused by message, is not a frame type of its own here).
  static func documentedAnswerTypes() throws -> [String: [String]] {
    let text = try String(
      contentsOf: StandardsContentsTests.root.appendingPathComponent("STANDARDS.md"), encoding: .utf8)
    let rule = try #require(text.range(of: "<a id=\"requests\"></a>"))
    let start = try #require(
      text.range(of: "<!-- BEGIN GENERATED: requests", range: rule.upperBound..<text.endIndex))
    let end = try #require(text.range(of: "<!-- END GENERATED: requests", range: start.upperBound..<text.endIndex))
    func names(_ part: Substring) -> [String] {
      part.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
        String($0.element)
      }
    }
    var table: [String: [String]] = [:]
    for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
      let cells = line.trimmingCharacters(in: .whitespaces).split(separator: "|", omittingEmptySubsequences: false)
      guard cells.count == 6, let request = names(cells[1]).first else { continue }
      // What follows the answer (`recipe_started, then ack`) ends no request: not in the table.
      let answered = String(cells[2]).components(separatedBy: ", then ")[0]
      let answers = (names(answered[...]) + names(cells[3])).filter { $0 != "error" }
      #expect(!answers.isEmpty, "no answer type for \(request)")
      #expect(table[request] == nil, "\(request) listed twice")
      table[request] = answers
    }
    return table
  }

  @Test func ruleNineListsTheEnginesAnswerTypes() throws {
    let documented = try Self.documentedAnswerTypes()
    #expect(documented.count >= 10, "the table was read")
    #expect(documented == ClientEngine.answerTypes)
  }
}
