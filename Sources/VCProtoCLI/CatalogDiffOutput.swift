import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto catalog --diff` output: text for people, JSON for programs.
enum CatalogDiffOutput {
  /// The lines of the text form.
  static func text(_ diff: CatalogDiff) -> [String] {
    var lines = ["protocol \(diff.from) -> \(diff.to)"]
    if diff.isEmpty { return lines + ["  no differences"] }
    func types(_ title: String, _ list: [(String, MessageDirection)]) {
      guard !list.isEmpty else { return }
      lines.append("  \(title):")
      for (type, direction) in list { lines.append("    \(type) (\(direction.rawValue))") }
    }
    types("types added", diff.typesAdded)
    types("types removed", diff.typesRemoved)
    func changed(_ title: String, _ list: [CatalogDiff.Changed]) {
      guard !list.isEmpty else { return }
      lines.append("  \(title):")
      for item in list {
        lines.append("    " + item.name + (item.direction.map { " (\($0.rawValue))" } ?? ""))
        for change in item.changes { lines.append("      " + line(change)) }
      }
    }
    changed("types changed", diff.typesChanged)
    if !diff.shapesAdded.isEmpty { lines.append("  shapes added: " + diff.shapesAdded.joined(separator: ", ")) }
    if !diff.shapesRemoved.isEmpty { lines.append("  shapes removed: " + diff.shapesRemoved.joined(separator: ", ")) }
    changed("shapes changed", diff.shapesChanged)
    return lines
  }

  /// `+ from_offset: integer >= 0, optional, nullable` or `~ session_id nullable: not nullable -> nullable`.
  static func line(_ change: CatalogDiff.Change) -> String {
    let member = change.member ?? "(type)"
    switch change.kind {
    case .added: return "+ \(member): \(change.to ?? "")"
    case .removed: return "- \(member): \(change.from ?? "")"
    default:
      return "~ \(member) \(change.kind.rawValue): \(change.from ?? "") -> \(change.to ?? "")"
    }
  }

  /// The JSON form: `{from, to, types_added, types_removed, types_changed, shapes_added, ...}`.
  static func json(_ diff: CatalogDiff) -> JSONObject {
    func types(_ list: [(String, MessageDirection)]) -> JSONValue {
      .array(
        list.map {
          .object(
            JSONObject([
              .init(key: "type", value: .string($0.0)), .init(key: "direction", value: .string($0.1.rawValue)),
            ]))
        })
    }
    func changed(_ list: [CatalogDiff.Changed], key: String) -> JSONValue {
      .array(
        list.map { item in
          var members: [JSONObject.Member] = [.init(key: key, value: .string(item.name))]
          if let direction = item.direction {
            members.append(.init(key: "direction", value: .string(direction.rawValue)))
          }
          let changes: [JSONValue] = item.changes.map { change in
            var c: [JSONObject.Member] = []
            c.append(.init(key: "member", value: change.member.map(JSONValue.string) ?? .null))
            c.append(.init(key: "change", value: .string(change.kind.rawValue)))
            c.append(.init(key: "from", value: change.from.map(JSONValue.string) ?? .null))
            c.append(.init(key: "to", value: change.to.map(JSONValue.string) ?? .null))
            return .object(JSONObject(c))
          }
          members.append(.init(key: "changes", value: .array(changes)))
          return .object(JSONObject(members))
        })
    }
    return JSONObject([
      .init(key: "from", value: .string(diff.from)), .init(key: "to", value: .string(diff.to)),
      .init(key: "types_added", value: types(diff.typesAdded)),
      .init(key: "types_removed", value: types(diff.typesRemoved)),
      .init(key: "types_changed", value: changed(diff.typesChanged, key: "type")),
      .init(key: "shapes_added", value: .array(diff.shapesAdded.map(JSONValue.string))),
      .init(key: "shapes_removed", value: .array(diff.shapesRemoved.map(JSONValue.string))),
      .init(key: "shapes_changed", value: changed(diff.shapesChanged, key: "shape")),
    ])
  }
}
