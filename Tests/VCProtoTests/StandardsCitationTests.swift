import Foundation
import Testing

/// Code and documents cite the specification by stable anchor (`STANDARDS.md#reconnect`), never by a
/// section number that moves when the document does: every `STANDARDS.md#anchor` and
/// `MESSAGES.md#type` cited anywhere in the repository (and every `#anchor` link inside either
/// document) names an `<a id>` the document has, and no citation by bare section number
/// (`STANDARDS.md section 8`, `section 15, rule 5`) remains.
@Suite struct StandardsCitationTests {
  static let root = StandardsContentsTests.root

  /// The text files of the repository that can cite the specification: sources, tests, tools, schemas,
  /// vectors and documents, without build products, hidden folders and `Reference/` (facts quoted from
  /// the real system's own documents, with their own numbering).
  static func citingFiles() -> [(path: String, text: String)] {
    let extensions: Set<String> = ["swift", "md", "py", "sh", "json", "yml", "txt"]
    let skipped: Set<String> = [".build", "Reference", "node_modules"]
    var files: [(String, String)] = []
    let manager = FileManager.default
    var stack = [""]
    while let relative = stack.popLast() {
      let url = relative.isEmpty ? root : root.appendingPathComponent(relative)
      let names = (try? manager.contentsOfDirectory(atPath: url.path)) ?? []
      for name in names.sorted() where !name.hasPrefix(".") && !skipped.contains(name) {
        let path = relative.isEmpty ? name : relative + "/" + name
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory) else {
          continue
        }
        if isDirectory.boolValue {
          stack.append(path)
        } else if extensions.contains((name as NSString).pathExtension),
          let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        {
          files.append((path, text))
        }
      }
    }
    return files
  }

  /// Every match of `pattern` in `text`, as the first capture group (or the whole match without one).
  static func matches(_ pattern: String, in text: String) throws -> [(value: String, location: Int)] {
    let expression = try NSRegularExpression(pattern: pattern)
    let string = text as NSString
    return expression.matches(in: text, range: NSRange(location: 0, length: string.length)).map { match in
      let range = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
      return (string.substring(with: range), match.range.location)
    }
  }

  /// The explicit anchors of a document: `<a id="..."></a>`.
  static func anchors(of path: String) throws -> [String] {
    let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    return try matches(#"<a id="([^"]+)"></a>"#, in: text).map(\.value)
  }

  /// The documents cited by anchor: the specification and its generated message reference.
  static let documents = ["STANDARDS.md", "docs/MESSAGES.md"]

  @Test func anchorsAreUnique() throws {
    for document in Self.documents {
      let anchors = try Self.anchors(of: document)
      #expect(anchors.count >= 40, "\(document)")
      #expect(Set(anchors).count == anchors.count, "duplicate anchors in \(document)")
    }
  }

  @Test func everyCitedAnchorExists() throws {
    let files = Self.citingFiles()
    #expect(files.count > 200)
    for document in Self.documents {
      let anchors = Set(try Self.anchors(of: document))
      let name = NSRegularExpression.escapedPattern(for: (document as NSString).lastPathComponent)
      var cited = 0
      for (path, text) in files where !path.hasSuffix("StandardsCitationTests.swift") {
        var found = try Self.matches(name + #"#([A-Za-z0-9._-]*[A-Za-z0-9_-])"#, in: text).map(\.value)
        if path == document { found += try Self.matches(#"\]\(#([^)\s]+)\)"#, in: text).map(\.value) }
        cited += found.count
        for anchor in found where !anchors.contains(anchor) {
          Issue.record("\(path) cites \(document)#\(anchor), which \(document) does not have")
        }
      }
      #expect(cited > 50, "\(document)")
    }
  }

  @Test func noCitationBySectionNumber() throws {
    // "section 8", "sections 12 and 13", "§10" and a rule of the state machine by number ("rule 9");
    // external documents keep their own numbering: RFC 8259 (section 8.3), versions.md section 6.
    let external = try NSRegularExpression(pattern: #"(RFC\s+\d+\s+\(?|versions\.md\s+|session-behaviour\s+)$"#)
    for (path, text) in Self.citingFiles() where !path.hasSuffix("StandardsCitationTests.swift") {
      let string = text as NSString
      var patterns = [#"\b[Ss]ections?\s+\d"#, #"§\s*\d"#, #"STANDARDS(\.md)?`?[\s/#*,(]*\d"#]
      if path == "STANDARDS.md" || path.hasSuffix("SpecGenerator.swift") { patterns.append(#"\b[Rr]ules?\s+\d"#) }
      for pattern in patterns {
        for (value, location) in try Self.matches(pattern, in: text) {
          let start = max(0, location - 24)
          let before = string.substring(with: NSRange(location: start, length: location - start))
          let beforeRange = NSRange(location: 0, length: (before as NSString).length)
          if external.firstMatch(in: before, range: beforeRange) != nil { continue }
          let line = string.substring(to: location).filter { $0 == "\n" }.count + 1
          Issue.record("\(path):\(line): cites by number (\(value)); cite STANDARDS.md#anchor instead")
        }
      }
    }
  }
}
