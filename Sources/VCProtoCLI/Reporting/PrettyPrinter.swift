import VCProto

/// Indented JSON for people: two spaces per level, one member or element per line, members in their
/// original order, empty containers as `{}` / `[]`. Strings and numbers are written exactly as
/// ``JSONWriter`` writes them.
enum PrettyPrinter {
  static func text(_ value: JSONValue) -> String {
    var out = ""
    write(value, indent: 0, into: &out)
    return out
  }

  private static func write(_ value: JSONValue, indent: Int, into out: inout String) {
    let pad = String(repeating: "  ", count: indent + 1)
    switch value {
    case .array(let items) where !items.isEmpty:
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += pad
        write(item, indent: indent + 1, into: &out)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
      out += String(repeating: "  ", count: indent) + "]"
    case .object(let object) where !object.isEmpty:
      out += "{\n"
      for (i, member) in object.members.enumerated() {
        out += pad + JSONValue.string(member.key).jsonText + ": "
        write(member.value, indent: indent + 1, into: &out)
        out += i + 1 < object.count ? ",\n" : "\n"
      }
      out += String(repeating: "  ", count: indent) + "}"
    default:
      out += value.jsonText
    }
  }
}
