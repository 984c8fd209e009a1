import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Every golden message vector: the verdict, the exact error findings (pointer and code), the listed
/// warnings, decoding, and a byte-exact re-encoding of valid frames.
@Suite struct MessageVectorTests {
  struct Vector: Decodable {
    struct Expected: Decodable, Hashable {
      var pointer: String
      var code: String
    }
    var id: String
    var direction: String
    var protocol_version: String
    var frame: String
    var valid: Bool
    var findings: [Expected]?
    var warnings: [Expected]?
    /// `false` for a valid frame that is not in canonical form (it re-encodes differently).
    var canonical: Bool?
  }

  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Vectors/messages")

  /// Every vector under Vectors/messages, recursively (one folder per protocol version); each file's
  /// folder must be its vectors' protocol_version.
  static func vectors() throws -> [Vector] {
    let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? [])
      .filter { $0.hasSuffix(".json") }
    return try files.sorted().flatMap { name in
      let vectors = try JSONDecoder().decode(
        [Vector].self, from: Data(contentsOf: directory.appendingPathComponent(name)))
      for v in vectors { #expect(name.hasPrefix(v.protocol_version + "/"), "\(name): \(v.id)") }
      return vectors
    }
  }

  @Test func vectorsAreManyAndUnique() throws {
    let vectors = try Self.vectors()
    #expect(vectors.count > 400 * ProtocolVersion.allCases.count)
    #expect(Set(vectors.map { $0.protocol_version + " " + $0.id }).count == vectors.count)
    for catalog in ProtocolCatalog.all {
      let ofVersion = vectors.filter { $0.protocol_version == catalog.version }
      // At least one valid vector for every modelled type of the version, extensions included.
      let validTypes = Set(
        ofVersion.filter(\.valid).compactMap { v -> String? in
          (try? JSONReader().parse(v.frame))?["type"]?.stringValue
        })
      for spec in catalog.messages where spec.isModelled {
        #expect(validTypes.contains(spec.type), "\(catalog.version): no valid vector for \(spec.type)")
      }
      // A not_in_version vector for every type another version has and this one lacks.
      let refused = Set(
        ofVersion.filter { ($0.findings ?? []).contains { $0.code == "not_in_version" } }.compactMap {
          (try? JSONReader().parse($0.frame))?["type"]?.stringValue
        })
      for spec in ProtocolCatalog.declaration.messages where spec.isModelled && catalog.message(spec.type) == nil {
        #expect(refused.contains(spec.type), "\(catalog.version): no not_in_version vector for \(spec.type)")
      }
    }
  }

  @Test func everyVectorGetsItsVerdictAndFindings() throws {
    for v in try Self.vectors() {
      let options = ValidationOptions(
        direction: MessageDirection(rawValue: v.direction), version: ProtocolVersion(rawValue: v.protocol_version)!)
      let report = Validator(options: options).validate(v.frame)
      let errors = Set(report.errors.map { Vector.Expected(pointer: $0.pointer, code: $0.code.rawValue) })
      #expect(report.isValid == v.valid, "\(v.id): \(report.findings)")
      #expect(errors == Set(v.findings ?? []), "\(v.id): \(report.findings)")
      let warnings = Set(report.warnings.map { Vector.Expected(pointer: $0.pointer, code: $0.code.rawValue) })
      #expect(Set(v.warnings ?? []).isSubset(of: warnings), "\(v.id): \(report.findings)")

      let decoder = MessageDecoder(options: options)
      do {
        let message = try decoder.decode(v.frame)
        #expect(v.valid, "\(v.id) decoded although invalid")
        let encoded = MessageEncoder().encodeText(message)
        if v.canonical ?? true {
          #expect(encoded == v.frame, "\(v.id): re-encoded as \(encoded)")
        } else {
          #expect(encoded != v.frame, "\(v.id) is canonical after all")
          #expect(try decoder.decode(encoded) == message, "\(v.id): round trip changed the message")
        }
      } catch {
        #expect(!v.valid, "\(v.id) failed to decode: \(error)")
        #expect(error.findings == report.findings, "\(v.id): decode and validate disagree")
      }
    }
  }

  /// Where a pointer lands in the catalog: the message type or shape that declares the member, the
  /// member, and whether the pointer names an element of that (array) member.
  struct Site: Hashable, CustomStringConvertible {
    var owner: String
    var member: String
    var element: Bool
    var description: String { "\(owner).\(member)\(element ? "[]" : "")" }
  }

  static func site(of pointer: String, in spec: MessageSpec, _ catalog: ProtocolCatalog) -> Site? {
    var tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    var owner = spec.type
    var fields = spec.fields
    while !tokens.isEmpty {
      let name = tokens.removeFirst()
      guard let field = fields.first(where: { $0.name == name }) else { return nil }
      var type = field.type
      var element = false
      if case .array(let inner) = type, let index = tokens.first, Int(index) != nil {
        tokens.removeFirst()
        type = inner
        element = true
      }
      if tokens.isEmpty { return Site(owner: owner, member: name, element: element) }
      guard case .shape(let shapeName) = type, let shape = catalog.shapes[shapeName] else { return nil }
      owner = shapeName
      fields = shape.fields
    }
    return nil
  }

  /// The shapes reachable from a message's members, through arrays, alternatives and recursion.
  static func reachableShapes(from fields: [FieldSpec], _ catalog: ProtocolCatalog) -> [String] {
    var found: [String] = []
    var pending = fields.map(\.type)
    while let type = pending.popLast() {
      switch type {
      case .shape(let name) where !found.contains(name):
        found.append(name)
        pending += catalog.shapes[name]?.fields.map(\.type) ?? []
      case .array(let inner): pending.append(inner)
      // An element that matches none of several alternatives is wrong_type as a whole (the vectors
      // do not mutate inside alternatives).
      case .oneOf: break
      default: break
      }
    }
    return found
  }

  /// The pointers of every `null` inside a JSON value.
  static func nullPointers(_ value: JSONValue, at pointer: String = "") -> [String] {
    switch value {
    case .null: return [pointer]
    case .array(let elements):
      return elements.enumerated().flatMap { nullPointers($0.element, at: "\(pointer)/\($0.offset)") }
    case .object(let object): return object.members.flatMap { nullPointers($0.value, at: "\(pointer)/\($0.key)") }
    default: return []
    }
  }

  /// The vectors cover the catalog, computed here from the catalog itself (not from the generator):
  /// for every message type and every shape reachable from it, to the bottom, each required member
  /// has a vector with it missing; each member that is not nullable one with it `null`; each member
  /// one with the wrong JSON type; each array member one with a `null` and one with a wrongly typed
  /// element; and each nullable member a valid vector with `null` there. Members of type `any`
  /// (ClaudeRecord.toolUseResult) accept every JSON type and are left out.
  @Test(arguments: ProtocolVersion.allCases)
  func vectorsCoverEveryMemberOfEveryReachableShape(version: ProtocolVersion) throws {
    let catalog = ProtocolCatalog.catalog(version)
    var covered: Set<String> = []
    for v in try Self.vectors() where v.protocol_version == version.rawValue {
      guard let frame = try? JSONReader().parse(v.frame), let type = frame["type"]?.stringValue,
        let spec = catalog.message(type)
      else { continue }
      if v.valid {
        for pointer in Self.nullPointers(frame) {
          if let site = Self.site(of: pointer, in: spec, catalog) { covered.insert("\(type) \(site) null") }
        }
      }
      for finding in v.findings ?? [] {
        if let site = Self.site(of: finding.pointer, in: spec, catalog) {
          covered.insert("\(type) \(site) \(finding.code)")
        }
      }
    }
    var required: [String] = []
    for spec in catalog.messages where spec.isModelled {
      let owners =
        [(spec.type, spec.fields)]
        + Self.reachableShapes(from: spec.fields, catalog).map { ($0, catalog.shapes[$0]!.fields) }
      for (owner, fields) in owners {
        for field in fields {
          let site = Site(owner: owner, member: field.name, element: false)
          if field.required { required.append("\(spec.type) \(site) missing_field") }
          if field.type == .any { continue }
          required.append("\(spec.type) \(site) \(field.nullable ? "null" : "null_not_allowed")")
          required.append("\(spec.type) \(site) wrong_type")
          if case .array(let inner) = field.type, inner != .any {
            let element = Site(owner: owner, member: field.name, element: true)
            required += ["\(spec.type) \(element) null_not_allowed", "\(spec.type) \(element) wrong_type"]
          }
        }
      }
    }
    #expect(required.count > 600)
    let uncovered = required.filter { !covered.contains($0) }
    #expect(uncovered.isEmpty, "no vector for: \(uncovered.joined(separator: ", "))")
  }

  /// STANDARDS.md#null cites vectors for where `null` is and is not allowed: each exists, the
  /// `.valid` ones are valid and contain a `null`, the others are invalid with `null_not_allowed`.
  @Test func theSpecsNullRuleCitesVectorsThatPinIt() throws {
    let root = Self.directory.deletingLastPathComponent().deletingLastPathComponent()
    let spec = try String(contentsOf: root.appendingPathComponent("STANDARDS.md"), encoding: .utf8)
    let start = try #require(spec.range(of: "<a id=\"null\"></a>**Where `null` is allowed.**"))
    let paragraph = String(spec[start.upperBound...]).components(separatedBy: "\n- ")[0]
    // The paragraph cites 0.2.0 vectors (the rule is the same in every version).
    let vectors = Dictionary(
      uniqueKeysWithValues: try Self.vectors().filter { $0.protocol_version == "0.2.0" }.map { ($0.id, $0) })
    let cited = paragraph.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
      .filter { $0.range(of: #"^[a-z_]+\.(valid|null)"#, options: .regularExpression) != nil }
    #expect(cited.count >= 8, "\(cited)")
    for id in cited {
      let vector = try #require(vectors[id], "STANDARDS.md cites \(id), which is not a vector")
      if id.contains(".valid") {
        #expect(vector.valid && vector.frame.contains("null"), "\(id)")
      } else {
        #expect(!vector.valid && (vector.findings ?? []).contains { $0.code == "null_not_allowed" }, "\(id)")
      }
    }
  }
}
