import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// The canonical form of a valid frame by the rule of STANDARDS.md#encoding, read from the catalog
/// of the frame's version: `type` first, then the declared members in catalog order, then
/// undeclared members as received, recursively through shapes; an optional member that is `null` is
/// omitted (a required one keeps its `null`); a shape whose undeclared members are part of the
/// record (`extraMembers: .allow`, raw Claude records) is kept as received.
///
/// `vcproto conformance` compares a peer's re-encoding of a vector marked `canonical: false` with
/// this, for every version the catalog declares (vcproto's typed model covers one version only).
enum ConformanceCanonical {
  /// The canonical text of `frame` under `version`, or `nil` when the frame is not an object of a
  /// type the version declares.
  static func text(of frame: [UInt8], version: String) -> [UInt8]? {
    guard let catalog = ProtocolCatalog.version(version),
      case .object(let object)? = try? JSONReader().parse(frame),
      let type = object["type"]?.stringValue, let spec = catalog.message(type)
    else { return nil }
    var out = JSONObject([.init(key: "type", value: .string(type))])
    out.members += ordered(object, fields: spec.fields, catalog: catalog).members.filter { $0.key != "type" }
    var writer = JSONWriter()
    writer.write(.object(out))
    return writer.bytes
  }

  private static func ordered(_ object: JSONObject, fields: [FieldSpec], catalog: ProtocolCatalog) -> JSONObject {
    var out = JSONObject()
    for field in fields {
      guard let value = object[field.name] else { continue }
      if value.isNull, !field.required { continue }
      out.members.append(.init(key: field.name, value: canonical(value, field.type, catalog: catalog)))
    }
    let declared = Set(fields.map(\.name))
    out.members += object.members.filter { !declared.contains($0.key) }
    return out
  }

  private static func canonical(_ value: JSONValue, _ type: FieldType, catalog: ProtocolCatalog) -> JSONValue {
    switch (type, value) {
    case (.shape(let name), .object(let object)):
      guard let shape = catalog.shapes[name], shape.extraMembers != .allow else { return value }
      return .object(ordered(object, fields: shape.fields, catalog: catalog))
    case (.array(let element), .array(let items)):
      return .array(items.map { canonical($0, element, catalog: catalog) })
    case (.oneOf(let alternatives), _):
      guard let match = alternatives.first(where: { $0.jsonTypeName == value.typeName }) else { return value }
      return canonical(value, match, catalog: catalog)
    default:
      return value
    }
  }
}
