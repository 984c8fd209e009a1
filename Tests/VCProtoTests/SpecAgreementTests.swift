import Foundation
import Testing
import VCProtoCLI
import VCProtoCodegen

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The message reference (docs/MESSAGES.md, with STANDARDS.md's generated table), the catalog and the
/// Swift model agree: no type or member in one but not the others, and every example in the reference
/// is a golden vector.
@Suite struct SpecAgreementTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func spec() throws -> String {
    try String(contentsOf: root.appendingPathComponent("STANDARDS.md"), encoding: .utf8)
  }

  static func reference() throws -> String {
    try String(contentsOf: root.appendingPathComponent(SpecGenerator.referencePath), encoding: .utf8)
  }

  @Test func generatedDocumentsAreCurrent() throws {
    let document = try Self.spec()
    let examples = SpecExamples.load(from: Self.root.appendingPathComponent("Vectors/messages"))
    let generator = SpecGenerator(examples: examples)
    for name in SpecGenerator.generatedSections {
      #expect(document.contains(SpecGenerator.begin(name)), "STANDARDS.md lacks the begin marker of \(name)")
      #expect(document.contains(SpecGenerator.end(name)), "STANDARDS.md lacks the end marker of \(name)")
    }
    #expect(generator.render(into: document) == document, "STANDARDS.md is stale: run tools/regenerate.sh")
    #expect(generator.reference() == (try Self.reference()), "docs/MESSAGES.md is stale: run tools/regenerate.sh")
  }

  /// Reads the member column of each `### \`type\`` section's table straight from the markdown.
  static func tables(in document: String) -> [String: [String]] {
    var tables: [String: [String]] = [:]
    var current: String?
    for var line in document.split(separator: "\n", omittingEmptySubsequences: false) {
      // `### <a id="connect"></a>\`connect\``: the explicit anchor is not part of the name.
      if line.hasPrefix("### <a id=\""), let close = line.range(of: "</a>") {
        line = Substring("### " + line[close.upperBound...])
      }
      if line.hasPrefix("### `") {
        current = String(line.dropFirst(5).prefix { $0 != "`" })
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
    let tables = Self.tables(in: try Self.reference())
    // One section per type and shape of the declaration (every version), one row per declared member.
    let declaration = ProtocolCatalog.declaration
    for spec in declaration.messages {
      #expect(tables[spec.type] == spec.fields.map(\.name), "\(spec.type): spec table differs from the catalog")
    }
    for shape in declaration.shapes {
      #expect(tables[shape.name] == shape.fields.map(\.name), "\(shape.name): spec table differs")
    }
    let documented = Set(tables.keys)
    let declared = Set(declaration.messages.map(\.type)).union(declaration.shapes.map(\.name))
    #expect(documented == declared, "in the spec only: \(documented.subtracting(declared))")
    // The model has a case for exactly the types modelled in some version.
    let modelled = Set(ClientMessage.modelledTypes + ServerMessage.modelledTypes)
    #expect(modelled == Set(declaration.messages.filter(\.isModelled).map(\.type)))
    #expect(tables["recipe_step_complete"] == [])
  }

  @Test func everyExampleIsAVector() throws {
    let document = try Self.reference()
    var frames: Set<String> = []
    let directory = Self.root.appendingPathComponent("Vectors/messages")
    let names = FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []
    for name in names where name.hasSuffix(".json") {
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

  // MARK: - Decoded payloads keep nothing undeclared

  /// Every `additionalMembers` inside a decoded value (the payload's and every nested shape's), found
  /// through the public stored properties by reflection; raw JSON (`JSONObject`, `JSONValue`, raw
  /// Claude records) is not descended into, since it is not a model.
  static func additionalMembers(in value: Any) -> [JSONObject] {
    if value is JSONObject || value is JSONValue || value is ClaudeRecord { return [] }
    var found: [JSONObject] = []
    for child in Mirror(reflecting: value).children {
      if child.label == "additionalMembers", let members = child.value as? JSONObject {
        found.append(members)
      } else {
        found += additionalMembers(in: child.value)
      }
    }
    return found
  }

  /// Every valid vector decodes into typed members only: the payload's and every nested shape's
  /// `additionalMembers` is empty, except for exactly the members the vector lists as
  /// `unexpected_field` warnings. A member the model failed to map would land there. Every version:
  /// the payload of the vector's version must map exactly that version's members.
  @Test func validVectorsDecodeWithNoAdditionalMembers() throws {
    var decoded = 0
    var probed = false
    for v in try MessageVectorTests.vectors() where v.valid {
      let options = ValidationOptions(
        direction: MessageDirection(rawValue: v.direction), version: ProtocolVersion(rawValue: v.protocol_version)!)
      let message = try MessageDecoder(options: options).decode(v.frame)
      if case .unknown = message { continue }
      decoded += 1
      let found = Self.additionalMembers(in: message)
      // The payload itself always has the property: an empty result would mean the probe is blind.
      #expect(!found.isEmpty, "\(v.id): no additionalMembers found by reflection")
      let unexpected = Set(
        (v.warnings ?? []).filter { $0.code == "unexpected_field" }.compactMap {
          JSONPointer.tokens($0.pointer)?.last
        })
      #expect(Set(found.flatMap(\.keys)) == unexpected, "\(v.id): \(found)")
      if !unexpected.isEmpty { probed = true }
    }
    #expect(decoded > 90)
    #expect(probed, "no valid vector with an undeclared member: the check above could never fail")
  }

  // MARK: - vcproto's catalog against the independent reference catalog

  static let referenceURL = root.appendingPathComponent("Reference/catalog-0.2.0.json")

  /// Types vcproto adds as negotiated extensions; the reference (the real 0.2.0 system) has none of them.
  static let extensionTypes: Set<String> = ["heartbeat", "draining", "disconnect"]
  /// Members vcproto adds to real types as negotiated extensions (STANDARDS.md#extensions and
  /// STANDARDS.md#negotiation).
  static let extensionMembers: Set<String> = [
    "connect.protocol_version", "connect.protocol_versions", "connect.capabilities", "connect.auth_version",
    "connect.client_nonce", "connect.auth_response", "hello.protocol_versions", "hello.auth_versions",
    "hello.capabilities", "hello.challenge", "connected.negotiated_protocol_version", "connected.capabilities",
    "connected.auth_version", "connected.server_proof", "prompt.idempotency_key", "error.code", "error.required",
    "error.received", "error.supported", "error.requested", "error.message_id",
  ]
  /// Requiredness vcproto changes on purpose: with auth v2, `auth_response` replaces `api_key` (the
  /// catalog's rule "exactly one of api_key, auth_response" keeps a 0.2.0 connect without a key invalid).
  static let optionalByExtension: Set<String> = ["connect.api_key"]
  /// The reference's statuses in vcproto's words.
  static let statusNames = [
    "implemented": "implemented", "implemented_not_in_inventory": "implemented",
    "documented_not_implemented": "documented_not_implemented", "broken_unhandled": "unhandled",
    "listed_in_review_but_nonexistent": "nonexistent",
  ]

  static func jsonType(_ type: FieldType) -> String {
    switch type {
    case .string: return "string"
    case .integer: return "integer"
    case .number: return "number"
    case .boolean: return "boolean"
    case .any: return "any"
    case .shape, .object: return "object"
    case .array: return "array"
    case .oneOf(let types): return types.map(jsonType).joined(separator: "|")
    }
  }

  /// Compares one member list with the reference's, member by member and into nested shapes.
  static func compare(
    _ fields: [FieldSpec], with reference: [[String: Any]], at path: String, shape: String?,
    _ catalog: ProtocolCatalog, differences: inout [String]
  ) {
    let referenceFields = reference.filter { $0["name"] as? String != "type" || shape != nil }
    let names = referenceFields.map { $0["name"] as! String }
    let ours = fields.map(\.name).filter { !extensionMembers.contains("\(path).\($0)") }
    if ours != names { differences.append("\(path): members \(ours) vs reference \(names)") }
    for entry in referenceFields {
      let name = entry["name"] as! String
      guard let field = fields.first(where: { $0.name == name }) else { continue }
      let at = "\(path).\(name)"
      if field.required != (entry["required"] as! Bool) && !optionalByExtension.contains(at) {
        differences.append("\(at): required \(field.required) vs reference \(entry["required"] as! Bool)")
      }
      if field.nullable != (entry["nullable"] as! Bool) {
        differences.append("\(at): nullable \(field.nullable) vs reference \(entry["nullable"] as! Bool)")
      }
      if jsonType(field.type) != entry["json_type"] as! String {
        differences.append("\(at): \(jsonType(field.type)) vs reference \(entry["json_type"]!)")
      }
      // Nested shapes: an object's members, or an array's element members.
      var nestedType = field.type
      var nested = entry["shape"] as? [String: Any]
      if case .array(let inner) = field.type {
        nestedType = inner
        nested = nested?["items"] as? [String: Any]
      }
      if let referenceMembers = nested?["fields"] as? [[String: Any]] {
        guard case .shape(let name) = nestedType, let nestedShape = catalog.shapes[name] else {
          differences.append("\(at): the reference has a shape, vcproto \(field.type)")
          continue
        }
        compare(nestedShape.fields, with: referenceMembers, at: at, shape: name, catalog, differences: &differences)
      } else if let text = entry["shape"] as? String, text.contains("recursive") {
        // "array of command nodes (recursive)": the member holds the enclosing shape again.
        if field.type != .array(.shape(shape ?? "")) {
          differences.append("\(at): the reference recurses into \(shape ?? "?"), vcproto has \(field.type)")
        }
      }
    }
  }

  /// vcproto's catalog agrees with Reference/catalog-0.2.0.json, read directly: the
  /// same 63 types (plus vcproto's extension types), the same direction and status of each, and
  /// member by member, to the bottom of nested shapes, the same names in the same order,
  /// requiredness, nullability and JSON type -- except the extension members listed above.
  @Test func catalogAgreesWithTheReferenceCatalog() throws {
    let reference = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.referenceURL)) as! [String: Any]
    let entries = reference["messages"] as! [[String: Any]]
    #expect(entries.count == 63)
    let catalog = ProtocolCatalog.v0_2_0
    let referenceTypes = entries.map { $0["type"] as! String }
    #expect(
      catalog.messages.map(\.type).filter { !Self.extensionTypes.contains($0) } == referenceTypes,
      "type lists differ")
    for type in Self.extensionTypes { #expect(catalog.message(type)?.status == .extension, "\(type)") }
    var differences: [String] = []
    for entry in entries {
      let type = entry["type"] as! String
      guard let spec = catalog.message(type) else {
        differences.append("\(type): not in vcproto's catalog")
        continue
      }
      if spec.direction.rawValue != entry["direction"] as! String {
        differences.append("\(type): direction \(spec.direction.rawValue) vs \(entry["direction"]!)")
      }
      if spec.status.rawValue != Self.statusNames[entry["status"] as! String] {
        differences.append("\(type): status \(spec.status.rawValue) vs \(entry["status"]!)")
      }
      Self.compare(
        spec.fields, with: entry["fields"] as! [[String: Any]], at: type, shape: nil, catalog,
        differences: &differences)
    }
    #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    // Every listed exception is still one: a stale entry would hide a real difference.
    for member in Self.extensionMembers {
      let parts = member.split(separator: ".").map(String.init)
      #expect(catalog.message(parts[0])?.field(parts[1]) != nil, "\(member) is not in vcproto's catalog")
      let listed = (entries.first { $0["type"] as? String == parts[0] }?["fields"] as? [[String: Any]])?
        .contains { $0["name"] as? String == parts[1] }
      #expect(listed == false, "\(member) is in the reference: not an extension")
    }
  }
}
