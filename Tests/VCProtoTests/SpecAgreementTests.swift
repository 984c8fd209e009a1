import Foundation
import Testing
import VCProtoCLI
import VCProtoCodegen

@testable import VCProto

/// STANDARDS.md, the catalog and the Swift model agree: no type or member in one but not the others,
/// and every example in the spec is a golden vector.
@Suite struct SpecAgreementTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func spec() throws -> String {
    try String(contentsOf: root.appendingPathComponent("STANDARDS.md"), encoding: .utf8)
  }

  @Test func generatedSectionsAreCurrent() throws {
    let document = try Self.spec()
    let examples = SpecExamples.load(from: Self.root.appendingPathComponent("Vectors/messages"))
    #expect(
      SpecGenerator(examples: examples).render(into: document) == document,
      "STANDARDS.md is stale: run `swift run vcproto generate-spec`")
  }

  /// Reads the member column of each `#### \`type\`` section's table straight from the markdown.
  static func tables(in document: String) -> [String: [String]] {
    var tables: [String: [String]] = [:]
    var current: String?
    for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("#### `") {
        current = String(line.dropFirst(6).prefix { $0 != "`" })
        tables[current!] = []
      } else if line.hasPrefix("## ") {
        current = nil
      } else if let name = current, line.hasPrefix("| `") {
        tables[name]!.append(String(line.dropFirst(3).prefix { $0 != "`" }))
      }
    }
    return tables
  }

  @Test func everyTypeAndMemberIsInSpecCatalogAndModel() throws {
    let tables = Self.tables(in: try Self.spec())
    let catalog = ProtocolCatalog.latest
    for spec in catalog.messages {
      #expect(tables[spec.type] == spec.fields.map(\.name), "\(spec.type): spec table differs from the catalog")
    }
    for name in catalog.shapeOrder {
      #expect(tables[name] == catalog.shapes[name]?.fields.map(\.name), "\(name): spec table differs")
    }
    let documented = Set(tables.keys)
    let declared = Set(catalog.messages.map(\.type)).union(catalog.shapeOrder)
    #expect(documented == declared, "in the spec only: \(documented.subtracting(declared))")
    // The model has a case for exactly the modelled types (the generated enums list them).
    let modelled = Set(ClientMessage.modelledTypes + ServerMessage.modelledTypes)
    #expect(modelled == Set(catalog.messages.filter(\.isModelled).map(\.type)))
    #expect(tables["recipe_step_complete"] == [])
  }

  @Test func everyExampleIsAVector() throws {
    let document = try Self.spec()
    var frames: Set<String> = []
    let directory = Self.root.appendingPathComponent("Vectors/messages")
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".json") {
      let data = try Data(contentsOf: directory.appendingPathComponent(name))
      for vector in try JSONReader().parse(Array(data)).arrayValue ?? [] {
        if let frame = vector["frame"]?.stringValue { frames.insert(frame) }
      }
    }
    let blocks = document.components(separatedBy: "```json\n").dropFirst().map {
      String($0.prefix { $0 != "\n" })
    }
    #expect(blocks.count >= 60)
    for block in blocks { #expect(frames.contains(block), "example is not a vector: \(block)") }
  }
}
