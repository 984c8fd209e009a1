import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Every member that a reference catalog (Reference/catalog-0.{2,3,4,5}.0.json, read directly) gives a
/// JSON type has that JSON type in vcproto's catalog of the same version, at every depth: top-level
/// members, the members of nested objects and the elements of arrays. The reference's types are
/// `string`, `integer`, `number`, `boolean`, `object`, `array` (and `string|array` for Claude message
/// content); vcproto's `any` is none of them, so a member declared `any` where the real system says
/// `object` (a canvas component's `props`, issue 13) is a difference. Members one side lacks are the
/// business of ``SpecAgreementTests`` (0.2.0) and the version history, not of this check.
@Suite struct ReferenceJSONTypeTests {
  /// The reference catalog's spelling of a vcproto type.
  static func referenceSpelling(_ type: FieldType) -> String {
    switch type {
    case .string: return "string"
    case .integer: return "integer"
    case .number: return "number"
    case .boolean: return "boolean"
    case .any: return "any"  // the reference has no such type
    case .shape, .object: return "object"
    case .array: return "array"
    case .oneOf(let types):
      var names: [String] = []
      for name in types.map(referenceSpelling) where !names.contains(name) { names.append(name) }
      return names.joined(separator: "|")
    }
  }

  /// The named shapes a (non-array) type stands for: one, or each alternative's.
  static func shapeNames(_ type: FieldType) -> [String] {
    switch type {
    case .shape(let name): return [name]
    case .oneOf(let types): return types.flatMap(shapeNames)
    default: return []
    }
  }

  struct Walk {
    let catalog: ProtocolCatalog
    var differences: [String] = []
    var compared = 0

    /// Compares the reference's `entries` with vcproto's `fields`, member by member, then descends.
    mutating func compare(_ fields: [FieldSpec], with entries: [[String: Any]], at path: String) {
      for entry in entries {
        let name = entry["name"] as! String
        guard let field = fields.first(where: { $0.name == name }) else { continue }
        let expected = entry["json_type"] as! String
        let ours = ReferenceJSONTypeTests.referenceSpelling(field.type)
        compared += 1
        if ours != expected {
          differences.append("\(catalog.version) \(path).\(name): vcproto \(ours), reference \(expected)")
        }
        for described in variants(of: entry) {
          descend(field.type, described, at: "\(path).\(name)")
        }
      }
    }

    /// The shape descriptions of a reference member: its one shape, or its variants (per channel
    /// version in catalog-0.4.0.json: only this version's; per path of the server: each of them).
    func variants(of entry: [String: Any]) -> [[String: Any]] {
      guard let shape = entry["shape"] as? [String: Any] else { return [] }  // none, or "(recursive)" text
      if shape["json_type"] != nil { return [shape] }
      if let own = shape["v\(catalog.version)"] as? [String: Any] { return [own] }
      if shape.keys.contains(where: { $0.hasPrefix("v0.") }) { return [] }
      return shape.values.compactMap { $0 as? [String: Any] }
    }

    /// Compares a described object (or array of objects) with vcproto's type of the same member.
    mutating func descend(_ type: FieldType, _ described: [String: Any], at path: String) {
      var type = type
      var described = described
      if case .array(let element) = type {
        // The element's description is under `items`, or (catalog-0.5.0.json) the description itself.
        let items = described["items"] as? [String: Any] ?? described
        if let expected = items["json_type"] as? String {
          let ours = ReferenceJSONTypeTests.referenceSpelling(element)
          compared += 1
          if ours != expected {
            differences.append("\(catalog.version) \(path)[]: vcproto \(ours), reference \(expected)")
          }
        }
        type = element
        described = items
      }
      guard let entries = described["fields"] as? [[String: Any]] else { return }
      // Among the shapes the member may hold, the one sharing the most member names with the description.
      let names = Set(entries.map { $0["name"] as! String })
      let candidates = ReferenceJSONTypeTests.shapeNames(type).compactMap { catalog.shapes[$0] }
      guard
        let shape = candidates.max(by: {
          names.intersection($0.fields.map(\.name)).count < names.intersection($1.fields.map(\.name)).count
        })
      else { return }
      compare(shape.fields, with: entries, at: path)
    }
  }

  static func reference(_ version: String) throws -> [[String: Any]] {
    let url = ReferenceOracle.directory.appendingPathComponent("catalog-\(version).json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    return object["messages"] as! [[String: Any]]
  }

  @Test(arguments: ProtocolVersion.allCases)
  func everyMemberHasTheReferenceJSONType(_ version: ProtocolVersion) throws {
    var walk = Walk(catalog: ProtocolCatalog.catalog(version))
    for entry in try Self.reference(version.rawValue) {
      guard let spec = walk.catalog.message(entry["type"] as! String) else { continue }
      walk.compare(spec.fields, with: entry["fields"] as! [[String: Any]], at: spec.type)
    }
    #expect(walk.differences.isEmpty, "\(walk.differences.joined(separator: "\n"))")
    // Most of the reference's members were looked at (a walk that matched nothing would pass).
    #expect(walk.compared >= 220, "only \(walk.compared) members compared")
  }

  /// The difference that motivated the check: `CanvasComponent.props` is an object on every version
  /// that has it, and the validator refuses any other JSON type there.
  @Test func canvasPropsIsAnObject() throws {
    for version in [ProtocolVersion.v0_3_0, .v0_4_0, .v0_5_0] {
      let props = try #require(ProtocolCatalog.catalog(version).shapes["CanvasComponent"]?.field("props"))
      #expect(Self.referenceSpelling(props.type) == "object")
      let options = ValidationOptions(direction: .serverToClient, version: version)
      let bad = #"{"type":"canvas_update","components":[{"type":"text_block","props":7}]}"#
      let result = Validator(options: options).validate(bad)
      #expect(result.errors.map(\.pointer) == ["/components/0/props"], "\(version)")
      #expect(result.errors.map(\.code) == [.wrongType], "\(version)")
      let good = #"{"type":"canvas_update","components":[{"type":"text_block","props":{"text":"Hi","n":[1]}}]}"#
      #expect(Validator(options: options).validate(good).errors.isEmpty, "\(version)")
    }
  }

  /// The typed member is a ``JSONObject`` on both decode paths (read straight from the bytes, and built
  /// after validation), the frame re-encodes byte for byte, and a non-object `props` decodes on neither.
  @Test func canvasPropsDecodesAsAnObject() throws {
    let good =
      #"{"type":"canvas_update","components":[{"type":"text_block","props":{"text":"Hi","n":[1,{"a":null}]}}]}"#
    let bad = #"{"type":"canvas_update","components":[{"type":"text_block","props":"text"}]}"#
    for strict in [false, true] {
      let options = ValidationOptions(direction: .serverToClient, version: .v0_5_0, strict: strict)
      let decoder = MessageDecoder(options: options)
      #expect(decoder.strategy == (strict ? .validated : .fast))
      let decoded = try decoder.decode(good)
      guard case .server(.canvasUpdate(let update)) = decoded else {
        Issue.record("expected canvas_update, got \(decoded)")
        continue
      }
      let props = try #require(update.components.first?.props)
      #expect(props.keys == ["text", "n"])
      #expect(props["text"] == .string("Hi"))
      #expect(MessageEncoder().encodeText(decoded) == good)
      #expect(throws: DecodingFailure.self) { try decoder.decode(bad) }
    }
    let component = JSONObject([
      JSONObject.Member(key: "type", value: "error"), JSONObject.Member(key: "props", value: .array([])),
    ])
    #expect(CanvasComponent.read(tree: .object(component)) == nil)
  }
}
