import Foundation
import Testing
import VCProtoCodegen

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Schema/ and the validator agree on the handshake lists' cap (STANDARDS.md#limits and
/// STANDARDS.md#negotiation-and-auth): the committed schemas give `maxItems` to exactly the lists the validator caps,
/// at the validator's default limit, and for each of them 64 entries pass the validator and 65 draw
/// `handshake_list_too_long`. (The message vectors `<type>.valid.max_items.<list>` and
/// `<type>.handshake_list_too_long.<list>` hold the same frames, which tools/crosscheck_schema.py runs
/// through Python's jsonschema and the vcproto binary.)
@Suite struct SchemaListCapTests {
  /// The lists STANDARDS.md#limits caps ("`hello`, `connect` or `connected` lists"), written out
  /// here rather than derived from the catalog, with an entry valid in each.
  static let cappedLists: [String: [String: JSONValue]] = [
    "hello": ["protocol_versions": "0.5.0", "auth_versions": 1, "capabilities": "heartbeat"],
    "connect": ["protocol_versions": "0.5.0", "capabilities": "heartbeat"],
    "connected": ["capabilities": "heartbeat"],
  ]

  /// The committed per-type schema of `type` in `version`.
  static func schema(_ version: String, _ type: String) throws -> JSONValue {
    let url = SchemaFreshnessTests.schemaDirectory.appendingPathComponent("\(version)/types/\(type).schema.json")
    return try JSONReader().parse([UInt8](Data(contentsOf: url)))
  }

  /// A member's `maxItems`, looking inside the `anyOf` of a nullable member.
  static func maxItems(_ property: JSONValue?) -> Int? {
    if let n = property?["maxItems"]?.intValue { return n }
    guard case .array(let branches)? = property?["anyOf"] else { return nil }
    return branches.compactMap { $0["maxItems"]?.intValue }.first
  }

  /// The `<type>.valid` vector's frame of `version`, with `member` set to `count` copies of `entry`.
  static func frame(_ version: String, _ type: String, _ member: String, _ entry: JSONValue, count: Int) throws
    -> JSONValue
  {
    let url = MessageVectorTests.directory.appendingPathComponent("\(version)/\(type).json")
    let vectors = try JSONDecoder().decode([MessageVectorTests.Vector].self, from: Data(contentsOf: url))
    let valid = try #require(vectors.first { $0.id == "\(type).valid" })
    guard case .object(var object) = try JSONReader().parse(valid.frame) else {
      Issue.record("\(type).valid is not an object")
      return .null
    }
    object[member] = .array(Array(repeating: entry, count: count))
    return .object(object)
  }

  @Test(arguments: ProtocolCatalog.all.map(\.version))
  func schemaMaxItemsAndTheValidatorCapTheSameLists(version: String) throws {
    let catalog = try #require(ProtocolCatalog.version(version))
    let limit = ValidationOptions.defaultMaxHandshakeListItems
    #expect(limit == 64)
    var seen: [String: Set<String>] = [:]
    for spec in catalog.messages where spec.isModelled {
      let properties = try Self.schema(version, spec.type)["properties"]
      for field in spec.fields {
        let declared = Self.maxItems(properties?[field.name])
        let capped = Validator.capsListLength(field, of: spec)
        #expect(declared == (capped ? limit : nil), "\(version) \(spec.type).\(field.name): maxItems \(declared ?? -1)")
        if declared != nil { seen[spec.type, default: []].insert(field.name) }
      }
    }
    #expect(seen == Self.cappedLists.mapValues { Set($0.keys) }, "\(version): \(seen)")

    let validator = Validator(options: ValidationOptions(version: ProtocolVersion(rawValue: version)!))
    for (type, lists) in Self.cappedLists {
      for (member, entry) in lists {
        let atLimit = validator.validate(try Self.frame(version, type, member, entry, count: limit))
        #expect(atLimit.findings.filter { $0.severity == .error }.isEmpty, "\(version) \(type).\(member) × 64")
        let over = validator.validate(try Self.frame(version, type, member, entry, count: limit + 1))
        #expect(
          over.findings.filter { $0.severity == .error }.map { "\($0.pointer) \($0.code)" }
            == ["/\(member) handshake_list_too_long"], "\(version) \(type).\(member) × 65")
      }
    }
  }
}
