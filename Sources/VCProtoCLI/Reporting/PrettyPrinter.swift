import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Indented JSON for people: two spaces per level, one member or element per line, members in their
/// original order, empty containers as `{}` / `[]`. Strings and numbers are written exactly as
/// ``JSONWriter`` writes them.
///
/// Bounded: a container nested deeper than ``maxIndentedDepth`` is written compactly on its line,
/// so the output is at most about a dozen times the compact text whatever the nesting (indenting
/// every level of a frame nested 120 deep printed a 1 MB frame as 124 MB), and ``write(_:to:)``
/// hands the text on in pieces of about ``chunkBytes``, so printing holds no whole copy of it.
enum PrettyPrinter {
  /// Deepest level indented: real frames nest at most 8 levels (every vector and reference sample).
  static let maxIndentedDepth = 10
  /// About how much text ``write(_:to:)`` gathers before handing it on.
  static let chunkBytes = 1 << 16

  /// The whole text (for small values: a catalog listing, a diff).
  static func text(_ value: JSONValue) -> String {
    var text = ""
    write(value) { text += $0 }
    return text
  }

  /// Writes the text in pieces to `emit`, in order.
  static func write(_ value: JSONValue, to emit: (String) -> Void) {
    var pending = ""
    write(value, indent: 0, into: &pending, emit)
    if !pending.isEmpty { emit(pending) }
  }

  private static func write(_ value: JSONValue, indent: Int, into out: inout String, _ emit: (String) -> Void) {
    if out.utf8.count >= chunkBytes {
      emit(out)
      out = ""
    }
    let pad = String(repeating: "  ", count: indent + 1)
    switch value {
    case .array(let items) where !items.isEmpty && indent < maxIndentedDepth:
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += pad
        write(item, indent: indent + 1, into: &out, emit)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
      out += String(repeating: "  ", count: indent) + "]"
    case .object(let object) where !object.isEmpty && indent < maxIndentedDepth:
      out += "{\n"
      for (i, member) in object.members.enumerated() {
        out += pad + JSONValue.string(member.key).jsonText + ": "
        write(member.value, indent: indent + 1, into: &out, emit)
        out += i + 1 < object.count ? ",\n" : "\n"
      }
      out += String(repeating: "  ", count: indent) + "}"
    default:
      out += value.jsonText
    }
  }
}
