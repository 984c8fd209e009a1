// TODO(merge): delete this file when VCProtoCodegen.SchemaGenerator lands on main. It is a minimal
// stand-in with the same API (`SchemaGenerator(catalog:).files() -> [(path: String, contents: String)]`)
// so `vcproto schema` compiles; once the real generator exists the two names clash and the build
// fails until this file is removed.
import VCProto

/// Stand-in for the real schema generator: writes one index listing the types per direction.
struct SchemaGenerator {
  let catalog: ProtocolCatalog

  init(catalog: ProtocolCatalog) {
    self.catalog = catalog
  }

  func files() -> [(path: String, contents: String)] {
    var members: [JSONObject.Member] = [JSONObject.Member(key: "version", value: .string(catalog.version))]
    for direction in MessageDirection.allCases {
      let types = catalog.messages(direction).filter(\.isModelled).map { JSONValue.string($0.type) }
      members.append(JSONObject.Member(key: direction.rawValue, value: .array(types)))
    }
    return [("\(catalog.version)/index.json", PrettyPrinter.text(.object(JSONObject(members))) + "\n")]
  }
}
