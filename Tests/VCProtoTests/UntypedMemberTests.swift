import Foundation
import Testing
import VCProtoCodegen

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Every declared member the typed model leaves as JSON is listed, with its reason, in the DocC article
/// on the model (TheTypedModel.md, "Members left untyped"); a new one fails here until it is typed or
/// its reason is written down.
@Suite struct UntypedMemberTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The article's table: `owner.member` (or `owner` for a whole shape) -> reason.
  static func documented() throws -> [String: String] {
    let url = root.appendingPathComponent("Sources/VCProto/VCProto.docc/TheTypedModel.md")
    let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
    let start = try #require(lines.firstIndex(of: "## Members left untyped"))
    var rows: [String: String] = [:]
    for line in lines[(start + 1)...] {
      if line.hasPrefix("#") { break }
      guard line.hasPrefix("| `") else { continue }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      guard cells.count == 5 else {
        Issue.record("malformed row: \(line)")
        continue
      }
      let owner = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
      let member = cells[2].hasPrefix("`") ? cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")) : nil
      let key = member.map { "\(owner).\($0)" } ?? owner
      #expect(rows[key] == nil, "\(key) is listed twice")
      rows[key] = cells[3]
    }
    return rows
  }

  @Test func everyUntypedMemberHasItsReason() throws {
    let untyped = SwiftModelGenerator().untypedMembers.map(\.description)
    let rows = try Self.documented()
    #expect(Set(untyped) == Set(rows.keys), "TheTypedModel.md lists exactly the untyped members")
    for (member, reason) in rows {
      #expect(reason.count >= 40, "\(member): the reason is missing or too short to be one")
    }
  }

  /// The generator's list against the generated source itself: the stored properties of generated
  /// structs whose type mentions `JSONValue` or `JSONObject` (other than `additionalMembers`) are exactly the listed members of generated owners
  /// (struct names without their version suffix, property names as the generator spells them).
  @Test func theGeneratedSourceHasNoOtherJSONMember() throws {
    let declaration = ProtocolCatalog.declaration
    let handWritten = Set(declaration.shapes.filter(\.handWrittenModel).map(\.name))
    var listed: Set<String> = []
    for m in SwiftModelGenerator().untypedMembers where !handWritten.contains(m.owner) {
      let member = try #require(m.member, "\(m.owner): only hand-written shapes are listed whole")
      let isMessage = declaration.messages.contains { $0.type == m.owner }
      let owner = isMessage ? SwiftModelGenerator.payloadName(m.owner) : m.owner
      listed.insert("\(owner).\(SwiftModelGenerator.camelCase(member))")
    }
    let directory = Self.root.appendingPathComponent("Sources/VCProtoCore/Generated")
    var found: Set<String> = []
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".swift") {
      var owner = ""
      let source = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      for line in source.components(separatedBy: "\n") {
        if line.hasPrefix("public struct ") {
          owner = Self.unversioned(String(line.dropFirst("public struct ".count).prefix { $0 != ":" && $0 != " " }))
        } else if line.hasPrefix("  public var "), !line.hasPrefix("  public var additionalMembers:"),
          line.contains("JSONValue") || line.contains("JSONObject")
        {
          found.insert("\(owner).\(line.dropFirst("  public var ".count).prefix { $0 != ":" })")
        }
      }
    }
    #expect(found.contains("CanvasComponent.props"), "the scan sees the generated properties")
    #expect(found == listed)
  }

  /// The accessors the article promises for a raw record's declared members, on the record of
  /// STANDARDS.md's 0.4.0-0.5.0 `session_updated` example (and absent or wrongly typed members: `nil`).
  @Test func rawRecordMembersHaveTypedAccessors() throws {
    let text =
      #"{"type":"user","uuid":"1f0e2d3c-4b5a-4968-8776-655443322110","parentUuid":null,"#
      + #""timestamp":"2026-01-11T17:20:01.512Z","sessionId":"4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11","#
      + #""cwd":"/Users/dev/voice-code","isSidechain":false,"toolUseResult":[1,"a"],"#
      + #""message":{"role":"user","content":"Résume les tests"}}"#
    let raw = try #require(try JSONReader().parse(text).objectValue)
    let record = ClaudeRecord(raw: raw)
    #expect(record.type == "user" && record.uuid == "1f0e2d3c-4b5a-4968-8776-655443322110")
    #expect(record.parentUuid == nil)
    #expect(record.timestamp == "2026-01-11T17:20:01.512Z")
    #expect(record.sessionId == "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11")
    #expect(record.cwd == "/Users/dev/voice-code")
    #expect(record.isSidechain == false)
    #expect(record.toolUseResult == .array([.number(JSONNumber(1)), .string("a")]))
    #expect(record.role == "user" && record.text == "Résume les tests")
    let other = ClaudeRecord(
      raw: JSONObject([
        JSONObject.Member(key: "parentUuid", value: .string("p")),
        JSONObject.Member(key: "isSidechain", value: .string("yes")),
      ]))
    #expect(other.parentUuid == "p" && other.isSidechain == nil && other.cwd == nil && other.toolUseResult == nil)
  }

  /// `HistoryMessageV0_4_0` -> `HistoryMessage`.
  static func unversioned(_ name: String) -> String {
    guard let v = name.lastIndex(of: "V") else { return name }
    let suffix = name[name.index(after: v)...]
    let isVersion = suffix.split(separator: "_").count == 3 && suffix.allSatisfy { $0.isNumber || $0 == "_" }
    return isVersion ? String(name[..<v]) : name
  }
}
