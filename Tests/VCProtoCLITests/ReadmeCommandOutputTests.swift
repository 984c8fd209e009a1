import Foundation
import Testing
import VCProto

@testable import VCProtoCLI

/// The `vcproto validate` runs README.md and docs/CLI.md show (a ```text block starting with
/// `$ swift run vcproto validate <capture>`) print what the command prints: each line shown is the
/// command's line; a line ending in `...` elides the rest of the output from there on.
@Suite struct ReadmeCommandOutputTests {
  @Test(arguments: [("README.md", 1), ("docs/CLI.md", 2)])
  func validateOutputsShownAreTheCommandsOutputs(_ document: String, _ shownRuns: Int) throws {
    let readme = try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
    var blocks: [[String]] = []
    var current: [String]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") {
        if let block = current { blocks.append(block) }
        current = line == "```text" && current == nil ? [] : nil
      } else if current != nil {
        current?.append(line)
      }
    }
    let runs = blocks.filter { $0.first?.hasPrefix("$ swift run vcproto validate ") == true }
    #expect(runs.count == shownRuns, "\(document) shows \(runs.count) runs of validate")
    for block in runs {
      let arguments = block[0].dropFirst("$ swift run vcproto ".count).split(separator: " ").map(String.init)
      let r = runCommand(arguments, directory: packageRoot.path)
      let printed = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      for (index, shown) in block.dropFirst().enumerated() {
        guard index < printed.count else {
          Issue.record("\(document): \(block[0]) shows more lines than printed: \(shown)")
          break
        }
        if let elided = shown.range(of: "...") {
          let kept = shown[..<elided.lowerBound].trimmingCharacters(in: .whitespaces)
          #expect(printed[index].hasPrefix(kept), "\(document): \(block[0]), line \(index + 1)")
          break
        }
        #expect(printed[index] == shown, "\(document): \(block[0]), line \(index + 1)")
      }
    }
  }
}
