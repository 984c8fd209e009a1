import Foundation
import Testing

/// README.md stays a page a newcomer reads (issue 31): at most 150 lines. The long references have
/// their own documents (docs/CLI.md, Benchmarks/RESULTS.md, the DocC catalog).
@Suite struct DocumentLengthTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  @Test func readmeIsAtMost150Lines() throws {
    let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    #expect(lines <= 150, "README.md has \(lines) lines")
    #expect(lines > 20, "README.md has \(lines) lines: not found whole?")
  }
}
