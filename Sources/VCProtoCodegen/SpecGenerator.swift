import Foundation
import VCProto

/// Generates the message reference of STANDARDS.md from the declaration of every version, and splices
/// it between the document's generated-section markers. Each type and shape has one section with the
/// versions it belongs to; its table lists each member with its versions (a member that changed has a
/// row per span of versions), and an example per distinct shape of the type across versions.
///
/// The examples are the frames of the golden vectors `<type>.valid` of each version, so every example
/// in the spec is a vector that vcproto and the jsonschema cross-check are tested against.
package struct SpecGenerator: Sendable {
  /// The declaration to document.
  package let declaration: ProtocolDeclaration
  /// Example frames by `<version>/<type>` (from `Vectors/messages/<version>/<type>.json`, vector
  /// `<type>.valid`).
  package let examples: [String: String]

  /// Creates a generator.
  package init(declaration: ProtocolDeclaration = ProtocolCatalog.declaration, examples: [String: String]) {
    self.declaration = declaration
    self.examples = examples
  }

  /// Marks the start of a generated section named `name`.
  package static func begin(_ name: String) -> String { "<!-- BEGIN GENERATED: \(name) (vcproto generate-spec) -->" }
  /// Marks the end of a generated section named `name`.
  package static func end(_ name: String) -> String { "<!-- END GENERATED: \(name) -->" }

  /// `document` with every generated section replaced by its current content.
  package func render(into document: String) -> String {
    var out = document
    for (name, content) in [("messages", messages()), ("shapes", shapes()), ("requests", requests())] {
      guard let start = out.range(of: Self.begin(name)), let stop = out.range(of: Self.end(name)),
        start.upperBound <= stop.lowerBound
      else { continue }
      out.replaceSubrange(start.upperBound..<stop.lowerBound, with: "\n" + content)
    }
    return out
  }

  /// The per-message reference, client-to-server first.
  package func messages() -> String {
    var s = ""
    for direction in MessageDirection.allCases {
      s += "### \(direction == .clientToServer ? "Client to server" : "Server to client")\n\n"
      for spec in declaration.messages where spec.direction == direction { s += section(spec) }
    }
    return s
  }

  /// `all versions`, or the versions.
  func versionsText(_ versions: VersionSet) -> String {
    versions.isAll ? "all versions" : versions.description
  }

  func section(_ spec: MessageSpec) -> String {
    var s = "#### <a id=\"\(spec.type)\"></a>`\(spec.type)`\n\n"
    s += spec.doc + "\n\n"
    guard spec.isModelled else {
      return s + "Status: **never existed**. No peer sends it; vcproto reports it as an unknown type.\n\n"
    }
    var status = statusText(spec.status)
    for (version, changed) in spec.statusChanges.sorted(by: { $0.key < $1.key }) {
      status += " until \(version); from \(version): " + statusText(changed)
    }
    var facts = [
      "Versions: \(versionsText(spec.versions))", "direction: \(spec.direction.rawValue)", "status: \(status)",
    ]
    if spec.direction == .clientToServer {
      facts.append(spec.requiresAuthentication ? "after authentication" : "allowed before authentication")
    } else if !spec.requiresAuthentication {
      facts.append("sent before authentication too")
    }
    if spec.endsOnlyItsSessionsRequest { facts.append("ends only a request about the session it names") }
    if let capability = spec.capability { facts.append("capability `\(capability)`") }
    s += facts.joined(separator: "; ") + ".\n\n"
    if let answers = answerText(spec) { s += answers + "\n\n" }
    if !spec.rules.isEmpty {
      s += "Rules: " + spec.rules.map(\.summary).joined(separator: "; ") + ".\n\n"
    }
    s += table(spec.fields, within: spec.versions)
    // One example per span of versions with the same members (the newest of the span).
    var spans: [[ProtocolVersion]] = []
    var last: [FieldSpec]?
    for version in spec.versions.versions {
      let fields = spec.fields.filter { $0.versions.contains(version) }
      if fields == last { spans[spans.count - 1].append(version) } else { spans.append([version]) }
      last = fields
    }
    for span in spans {
      guard let newest = span.last, let example = examples["\(newest)/\(spec.type)"] else { continue }
      if spans.count > 1 { s += "\nExample (\(VersionSet(span))):\n" }
      s += "\n```json\n\(example)\n```\n"
    }
    return s + "\n"
  }

  /// A request's answer, refusal types and refusal messages, and whether it is slow (STANDARDS.md#requests),
  /// or `nil` for a message that is not a request with an answer.
  func answerText(_ spec: MessageSpec) -> String? {
    guard !spec.answers.isEmpty || !spec.refusalTypes.isEmpty else { return nil }
    var s = "Answered by " + typeList(spec.answers, within: spec.versions)
    if !spec.followedBy.isEmpty {
      s += ", then " + typeList(spec.followedBy, within: spec.versions) + " for the same request (it ends no other)"
    }
    var refusals: [String] = []
    if !spec.refusalTypes.isEmpty { refusals.append(typeList(spec.refusalTypes, within: spec.versions)) }
    if !spec.refusals.isEmpty {
      refusals.append(
        "an `error` whose `message` is one of " + spec.refusals.map { "`\($0)`" }.joined(separator: ", "))
    }
    if !refusals.isEmpty { s += "; refused by " + refusals.joined(separator: ", or by ") }
    if spec.isSlow { s += "; slow: waits the slow-request timeout" }
    if spec.isSessionScoped { s += "; scoped to its `session_id`: a frame naming another session does not end it" }
    return s
      + (spec.refusals.isEmpty ? " ([Requests](#requests))." : " ([Requests](#requests); `<...>` stands for any text).")
  }

  /// Frame types as code, each followed by its versions when it does not exist in all of `within`.
  func typeList(_ types: [String], within: VersionSet) -> String {
    types.map { type in
      let versions = declaration.versions(ofType: type).intersection(within)
      return versions == within ? "`\(type)`" : "`\(type)` (\(versions))"
    }.joined(separator: ", ")
  }

  /// The table of STANDARDS.md#requests: every request with an answer, the frame types that end it, and its
  /// deadline. Indented to stay inside the numbered rule.
  package func requests() -> String {
    let indent = "   "
    var s = indent + "| request | answered by | refused by | deadline |\n" + indent + "|---|---|---|---|\n"
    for spec in declaration.messages where spec.direction == .clientToServer && spec.isModelled {
      guard !spec.answers.isEmpty || !spec.refusalTypes.isEmpty else { continue }
      var request = "`\(spec.type)`"
      if !spec.versions.isAll { request += " (\(spec.versions))" }
      if spec.isSessionScoped { request += ", per session" }
      var refusals = spec.refusalTypes.isEmpty ? [] : [typeList(spec.refusalTypes, within: spec.versions)]
      if !spec.refusals.isEmpty { refusals.append("`error` (its messages in [Message reference](#message-reference))") }
      let refused = refusals.joined(separator: ", ")
      var answered = typeList(spec.answers, within: spec.versions)
      if !spec.followedBy.isEmpty { answered += ", then " + typeList(spec.followedBy, within: spec.versions) }
      let cells = [request, answered, refused, spec.isSlow ? "slow" : "normal"]
      s += indent + "| " + cells.joined(separator: " | ") + " |\n"
    }
    return s + indent
  }

  func statusText(_ status: MessageStatus) -> String {
    switch status {
    case .implemented: return "implemented by the real system"
    case .documentedNotImplemented: return "documented and handled by clients, never sent by the real backend"
    case .unhandled: return "sent by clients, not dispatched by the real backend (see Quirks)"
    case .nonexistent: return "never existed"
    case .extension: return "vcproto extension, only after negotiation"
    }
  }

  /// The shape reference.
  package func shapes() -> String {
    var s = ""
    for shape in declaration.shapes {
      s += "#### <a id=\"\(shape.name.lowercased())\"></a>`\(shape.name)`\n\n\(shape.doc)"
      s += shape.extraMembers == .allow ? " Undeclared members are part of the record and pass silently.\n\n" : "\n\n"
      s += table(shape.fields, within: .all) + "\n"
    }
    return s
  }

  /// A markdown table of fields; the versions column says `all` for a member of every version in
  /// `within` (the message's versions).
  package func table(_ fields: [FieldSpec], within: VersionSet) -> String {
    guard !fields.isEmpty else { return "No members besides `type`.\n" }
    var s =
      "| member | versions | JSON type | required | null | values | notes |\n|---|---|---|---|---|---|---|\n"
    for f in fields {
      var values = ""
      if let allowed = f.allowedValues, allowed.isEmpty {
        values = f.nullable ? "only `null`" : "no value"  // as `vcproto catalog --diff` says it
      } else if let allowed = f.allowedValues {
        values = "one of " + allowed.map { "`\($0.jsonText)`" }.joined(separator: ", ")
      } else if !f.knownValues.isEmpty {
        values = "e.g. " + f.knownValues.prefix(4).map { "`\($0)`" }.joined(separator: ", ")
        if f.knownValues.count > 4 { values += ", …" }
      }
      if let d = f.defaultValue { values += (values.isEmpty ? "" : "; ") + "default `\(d.jsonText)`" }
      if let c = f.clamp {
        values += (values.isEmpty ? "" : "; ") + "a server clamps it to \(c.lowerBound)-\(c.upperBound)"
      }
      if let l = f.lengths {
        values += (values.isEmpty ? "" : "; ") + "\(l.lowerBound)-\(l.upperBound) characters (a server refuses others)"
      }
      var notes = f.doc
      if f.secret { notes += (notes.isEmpty ? "" : " ") + "**Secret.**" }
      if let c = f.capability { notes += (notes.isEmpty ? "" : " ") + "Extension: `\(c)`." }
      let versions = f.versions.intersection(within)
      let cells = [
        "`\(f.name)`", versions == within ? "all" : versions.description, typeText(f.type), f.required ? "yes" : "no",
        f.nullable ? "yes" : "no", values, notes,
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
    case .object: return "object"
    case .shape(let name): return "[`\(name)`](#\(name.lowercased()))"
    case .array(let element): return "array of " + typeText(element)
    case .oneOf(let types): return types.map(typeText).joined(separator: " or ")
    }
  }
}
