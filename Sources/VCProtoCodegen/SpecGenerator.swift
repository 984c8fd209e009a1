import Foundation
import VCProto

/// Generates the message reference of STANDARDS.md (one section per type with its field table and an
/// example) from the catalog, and splices it between the document's generated-section markers.
///
/// The examples are the frames of the golden vectors `<type>.valid`, so every example in the spec is
/// a vector that vcproto and the jsonschema cross-check are tested against.
public struct SpecGenerator: Sendable {
  /// The catalog to document.
  public let catalog: ProtocolCatalog
  /// Example frames by message type (from `Vectors/messages/<type>.json`, vector `<type>.valid`).
  public let examples: [String: String]

  /// Creates a generator.
  public init(catalog: ProtocolCatalog = .latest, examples: [String: String]) {
    self.catalog = catalog
    self.examples = examples
  }

  /// Marks the start of a generated section named `name`.
  public static func begin(_ name: String) -> String { "<!-- BEGIN GENERATED: \(name) (vcproto generate-spec) -->" }
  /// Marks the end of a generated section named `name`.
  public static func end(_ name: String) -> String { "<!-- END GENERATED: \(name) -->" }

  /// `document` with every generated section replaced by its current content.
  public func render(into document: String) -> String {
    var out = document
    for (name, content) in [("messages", messages()), ("shapes", shapes())] {
      guard let start = out.range(of: Self.begin(name)), let stop = out.range(of: Self.end(name)),
        start.upperBound <= stop.lowerBound
      else { continue }
      out.replaceSubrange(start.upperBound..<stop.lowerBound, with: "\n" + content)
    }
    return out
  }

  /// The per-message reference, client-to-server first.
  public func messages() -> String {
    var s = ""
    for direction in MessageDirection.allCases {
      s += "### \(direction == .clientToServer ? "Client to server" : "Server to client")\n\n"
      for spec in catalog.messages(direction) { s += section(spec) }
    }
    return s
  }

  func section(_ spec: MessageSpec) -> String {
    var s = "#### `\(spec.type)`\n\n"
    s += spec.doc + "\n\n"
    guard spec.isModelled else {
      return s + "Status: **never existed**. No peer sends it; vcproto reports it as an unknown type.\n\n"
    }
    var facts = ["Direction: \(spec.direction.rawValue)", "status: \(statusText(spec.status))"]
    if spec.direction == .clientToServer {
      facts.append(spec.requiresAuthentication ? "after authentication" : "allowed before authentication")
    }
    if let capability = spec.capability { facts.append("capability `\(capability)`") }
    s += facts.joined(separator: "; ") + ".\n\n"
    if !spec.rules.isEmpty {
      s += "Rules: " + spec.rules.map(\.summary).joined(separator: "; ") + ".\n\n"
    }
    s += table(spec.fields)
    if let example = examples[spec.type] {
      s += "\n```json\n\(example)\n```\n"
    }
    return s + "\n"
  }

  func statusText(_ status: MessageStatus) -> String {
    switch status {
    case .implemented: return "implemented by the real system"
    case .documentedNotImplemented: return "documented and handled by clients, never sent by the real 0.2.0 backend"
    case .unhandled: return "sent by clients, not dispatched by the real backend (see Quirks)"
    case .nonexistent: return "never existed"
    case .extension: return "vcproto extension, only after negotiation"
    }
  }

  /// The shape reference.
  public func shapes() -> String {
    var s = ""
    for name in catalog.shapeOrder {
      guard let shape = catalog.shapes[name] else { continue }
      s += "#### `\(name)`\n\n\(shape.doc)"
      s += shape.extraMembers == .allow ? " Undeclared members are part of the record and pass silently.\n\n" : "\n\n"
      s += table(shape.fields) + "\n"
    }
    return s
  }

  /// A markdown table of fields.
  public func table(_ fields: [FieldSpec]) -> String {
    guard !fields.isEmpty else { return "No members besides `type`.\n" }
    var s = "| member | JSON type | required | null | values | notes |\n|---|---|---|---|---|---|\n"
    for f in fields {
      var values = ""
      if let allowed = f.allowedValues {
        values = "one of " + allowed.map { "`\($0.jsonText)`" }.joined(separator: ", ")
      } else if !f.knownValues.isEmpty {
        values = "e.g. " + f.knownValues.prefix(4).map { "`\($0)`" }.joined(separator: ", ")
        if f.knownValues.count > 4 { values += ", …" }
      }
      if let d = f.defaultValue { values += (values.isEmpty ? "" : "; ") + "default `\(d.jsonText)`" }
      var notes = f.doc
      if f.secret { notes += (notes.isEmpty ? "" : " ") + "**Secret.**" }
      if let c = f.capability { notes += (notes.isEmpty ? "" : " ") + "Extension: `\(c)`." }
      let cells = [
        "`\(f.name)`", typeText(f.type), f.required ? "yes" : "no", f.nullable ? "yes" : "no", values, notes,
      ]
      s += "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
    }
    return s
  }

  func typeText(_ type: FieldType) -> String {
    switch type {
    case .string(let format): return format == .plain ? "string" : "string (\(format.rawValue))"
    case .integer(let minimum): return minimum.map { "integer ≥ \($0)" } ?? "integer"
    case .number: return "number"
    case .boolean: return "boolean"
    case .any: return "any"
    case .shape(let name): return "[`\(name)`](#\(name.lowercased()))"
    case .array(let element): return "array of " + typeText(element)
    case .oneOf(let types): return types.map(typeText).joined(separator: " or ")
    }
  }
}
