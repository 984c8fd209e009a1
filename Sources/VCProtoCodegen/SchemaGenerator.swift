import VCProtoCore
import VCProtoJSON

/// Generates JSON Schema (draft 2020-12) files from a protocol catalog: `Schema/<version>/...`.
///
/// The schemas say what vcproto's validator says, as far as JSON Schema can: required members,
/// nullability, JSON types, closed sets, integer ranges (including the 64-bit bounds vcproto
/// enforces), formats, nested shapes, cross-member rules, with `null` treated like an absent
/// optional member, and the handshake lists' length (`maxItems`, the validator's default
/// `handshake_list_too_long` cap, for the members ``Validator/capsListLength(_:of:)`` names).
/// Unknown types and undeclared members stay valid, as they are only warnings.
/// Two things JSON Schema cannot say are documented in Vectors/README.md: vcproto rejects `1.0`
/// for an integer member and duplicate keys, which JSON Schema validators never see.
package struct SchemaGenerator: Sendable {
  /// The catalog to describe.
  package let catalog: ProtocolCatalog

  /// Where the schemas are published (their `$id` prefix).
  package static let baseURI = "https://vcproto.dev/schema/"

  /// Creates a generator.
  package init(catalog: ProtocolCatalog = .latest) {
    self.catalog = catalog
  }

  /// The files, paths relative to `Schema/`, contents pretty-printed with a trailing newline.
  package func files() -> [(path: String, contents: String)] {
    let v = catalog.version
    var out: [(String, String)] = []
    out.append(("\(v)/message.schema.json", render(envelope(direction: nil))))
    out.append(("\(v)/client_to_server.schema.json", render(envelope(direction: .clientToServer))))
    out.append(("\(v)/server_to_client.schema.json", render(envelope(direction: .serverToClient))))
    for spec in catalog.messages where spec.isModelled {
      out.append(("\(v)/types/\(spec.type).schema.json", render(typeFile(spec))))
    }
    return out
  }

  // MARK: - Documents

  func id(_ path: String) -> JSONValue { .string(Self.baseURI + catalog.version + "/" + path) }

  func envelope(direction: MessageDirection?) -> JSONValue {
    let name = direction?.rawValue ?? "message"
    let messages = catalog.messages.filter { $0.isModelled && (direction == nil || $0.direction == direction) }
    // Types of other versions are errors (not_in_version), unlike types no version has.
    var forbidden = Set(ProtocolCatalog.declaration.messages.filter(\.isModelled).map(\.type))
      .subtracting(catalog.messages.filter(\.isModelled).map(\.type)).sorted()
    if let direction {
      forbidden += catalog.messages(direction.reversed).filter(\.isModelled).map(\.type)
    }
    var branches: [JSONValue] = []
    for spec in messages {
      branches.append([
        "if": ["properties": ["type": ["const": .string(spec.type)]], "required": ["type"]],
        "then": ["$ref": .string("#/$defs/message.\(spec.type)")],
      ])
    }
    var defs = JSONObject()
    for spec in messages { defs["message.\(spec.type)"] = messageSchema(spec) }
    for shape in shapesUsed(by: messages) { defs[shape] = shapeSchema(catalog.shapes[shape]!) }
    let description =
      direction == nil
      ? "Any voice-code protocol \(catalog.version) message, checked against its type. Unknown types are allowed (vcproto reports them as warnings); types of other protocol versions are not."
      : "A \(direction!.rawValue) message of protocol \(catalog.version). Types of the other direction and of other versions are not allowed; unknown types are (warnings in vcproto)."
    return [
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": id("\(name).schema.json"),
      "title": .string(
        "voice-code \(catalog.version) \(direction == nil ? "message" : direction!.rawValue + " message")"),
      "description": .string(description),
      "type": "object",
      "required": ["type"],
      "properties": ["type": ["type": "string"]],
      "not": ["properties": ["type": ["enum": .array(forbidden.map { .string($0) })]], "required": ["type"]],
      "allOf": .array(branches),
      "$defs": .object(defs),
    ]
  }

  func typeFile(_ spec: MessageSpec) -> JSONValue {
    guard case .object(var schema) = messageSchema(spec) else { return .null }
    var header = JSONObject([
      .init(key: "$schema", value: "https://json-schema.org/draft/2020-12/schema"),
      .init(key: "$id", value: id("types/\(spec.type).schema.json")),
    ])
    header.members.append(contentsOf: schema.members)
    schema = header
    let shapes = shapesUsed(by: [spec])
    if !shapes.isEmpty {
      var defs = JSONObject()
      for shape in shapes { defs[shape] = shapeSchema(catalog.shapes[shape]!) }
      schema["$defs"] = .object(defs)
    }
    return .object(schema)
  }

  // MARK: - Messages and shapes

  func messageSchema(_ spec: MessageSpec) -> JSONValue {
    var properties = JSONObject([.init(key: "type", value: ["const": .string(spec.type)])])
    var required: [JSONValue] = ["type"]
    for field in spec.fields {
      let maxItems = Validator.capsListLength(field, of: spec) ? ValidationOptions.defaultMaxHandshakeListItems : nil
      properties[field.name] = fieldSchema(field, maxItems: maxItems)
      if field.required { required.append(.string(field.name)) }
    }
    var schema = JSONObject([
      .init(key: "title", value: .string(spec.type)),
      .init(key: "description", value: .string(describe(spec))),
      .init(key: "type", value: "object"),
      .init(key: "required", value: .array(required)),
      .init(key: "properties", value: .object(properties)),
    ])
    let rules = spec.rules.map(ruleSchema)
    if !rules.isEmpty { schema["allOf"] = .array(rules) }
    for (key, value) in conversationFacts(spec) { schema[key] = value }
    return .object(schema)
  }

  /// The catalog's conversation facts of a message as annotations (keywords JSON Schema validators
  /// ignore; Vectors/README.md lists them): whether it may cross before authentication, and for a
  /// request the frame types that answer it, those that refuse it, the `error` messages that refuse
  /// it, and whether it is slow.
  func conversationFacts(_ spec: MessageSpec) -> [(String, JSONValue)] {
    func names(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
    var facts: [(String, JSONValue)] = []
    if !spec.requiresAuthentication { facts.append(("x-vcproto-before-authentication", true)) }
    if !spec.answers.isEmpty { facts.append(("x-vcproto-answers", names(spec.answers))) }
    if !spec.refusalTypes.isEmpty { facts.append(("x-vcproto-refusal-types", names(spec.refusalTypes))) }
    if !spec.refusals.isEmpty { facts.append(("x-vcproto-refusals", names(spec.refusals))) }
    if !spec.followedBy.isEmpty { facts.append(("x-vcproto-followed-by", names(spec.followedBy))) }
    if spec.isSlow { facts.append(("x-vcproto-slow", true)) }
    if spec.isSessionScoped { facts.append(("x-vcproto-session-scoped", true)) }
    if spec.endsOnlyItsSessionsRequest { facts.append(("x-vcproto-ends-only-its-sessions-request", true)) }
    return facts
  }

  func describe(_ spec: MessageSpec) -> String {
    var text = "\(spec.direction.rawValue). \(spec.doc)"
    if let capability = spec.capability { text += " Extension: requires the negotiated capability \(capability)." }
    return text
  }

  func shapeSchema(_ shape: ShapeSpec) -> JSONValue {
    var properties = JSONObject()
    var required: [JSONValue] = []
    for field in shape.fields {
      properties[field.name] = fieldSchema(field)
      if field.required { required.append(.string(field.name)) }
    }
    var schema = JSONObject([
      .init(key: "title", value: .string(shape.name)),
      .init(key: "description", value: .string(shape.doc)),
      .init(key: "type", value: "object"),
    ])
    if !required.isEmpty { schema["required"] = .array(required) }
    schema["properties"] = .object(properties)
    // A record passed through whole (raw Claude records): undeclared members are part of it, and a
    // re-encoding keeps it as received. Said explicitly so that schema-driven peers can tell.
    if shape.extraMembers == .allow { schema["additionalProperties"] = true }
    return .object(schema)
  }

  /// A member's schema; `maxItems` bounds a list member's length (a handshake list's).
  func fieldSchema(_ field: FieldSpec, maxItems: Int? = nil) -> JSONValue {
    guard case .object(var schema) = typeSchema(field.type) else { return .null }
    if let maxItems { schema["maxItems"] = .number(JSONNumber(maxItems)) }
    if let allowed = field.allowedValues { schema["enum"] = .array(allowed) }
    if field.nullable {
      schema = JSONObject([.init(key: "anyOf", value: [.object(schema), ["type": "null"]])])
    }
    var doc = field.doc
    if field.secret { doc += (doc.isEmpty ? "" : " ") + "Secret: never logged." }
    if let capability = field.capability {
      doc += (doc.isEmpty ? "" : " ") + "Extension: requires the negotiated capability \(capability)."
    }
    if !doc.isEmpty { schema["description"] = .string(doc) }
    if !field.knownValues.isEmpty { schema["examples"] = .array(field.knownValues.map { .string($0) }) }
    if let d = field.defaultValue { schema["default"] = d }
    if let clamp = field.clamp {
      schema["x-vcproto-clamp"] = [
        "minimum": .number(JSONNumber(clamp.lowerBound)), "maximum": .number(JSONNumber(clamp.upperBound)),
      ]
    }
    if let lengths = field.lengths {
      schema["x-vcproto-lengths"] = [
        "minimum": .number(JSONNumber(lengths.lowerBound)), "maximum": .number(JSONNumber(lengths.upperBound)),
      ]
    }
    return .object(schema)
  }

  func typeSchema(_ type: FieldType) -> JSONValue {
    switch type {
    case .string(let format):
      var s = JSONObject([.init(key: "type", value: "string")])
      switch format {
      case .plain: break
      case .dateTime: s["format"] = "date-time"
      case .uuid: s["format"] = "uuid"
      case .hex: s["pattern"] = "^([0-9a-f]{2})*$"
      case .version: s["pattern"] = "^[0-9]+\\.[0-9]+\\.[0-9]+$"
      }
      return .object(s)
    case .integer(let minimum):
      return [
        "type": "integer", "minimum": .number(JSONNumber(minimum ?? Int64.min)),
        "maximum": .number(JSONNumber(Int64.max)),
      ]
    case .number: return ["type": "number"]
    case .boolean: return ["type": "boolean"]
    // Any value but null: the validator refuses null unless the member is nullable (fieldSchema then
    // adds it), and array elements are never null.
    case .any: return ["not": ["type": "null"]]
    // Any object, members unconstrained (no `properties`, so nothing inside it is undeclared).
    case .object: return ["type": "object"]
    case .shape(let name): return ["$ref": .string("#/$defs/\(name)")]
    case .array(let element): return ["type": "array", "items": typeSchema(element)]
    case .oneOf(let types): return ["anyOf": .array(types.map(typeSchema))]
    }
  }

  /// A member "is set" when present and not null (vcproto treats null like absent for rules).
  func isSet(_ name: String) -> JSONValue {
    ["required": [.string(name)], "properties": [name: ["not": ["type": "null"]]]]
  }

  func ruleSchema(_ rule: FieldRule) -> JSONValue {
    switch rule {
    case .mutuallyExclusive(let names):
      return ["description": .string(rule.summary), "not": ["allOf": .array(names.prefix(2).map(isSet))]]
    case .exactlyOne(let names):
      return ["description": .string(rule.summary), "oneOf": .array(names.map(isSet))]
    case .requires(let a, let b):
      return ["description": .string(rule.summary), "if": isSet(a), "then": isSet(b)]
    case .requiredWhen(let a, let value, let names):
      return [
        "description": .string(rule.summary),
        "if": ["required": [.string(a)], "properties": [a: ["const": value]]],
        "then": ["allOf": .array(names.map(isSet))],
      ]
    }
  }

  /// Shapes reachable from the messages, in catalog order.
  func shapesUsed(by messages: [MessageSpec]) -> [String] {
    var found: Set<String> = []
    func visit(_ type: FieldType) {
      switch type {
      case .shape(let name):
        guard found.insert(name).inserted, let shape = catalog.shapes[name] else { return }
        for f in shape.fields { visit(f.type) }
      case .array(let e): visit(e)
      case .oneOf(let ts): ts.forEach(visit)
      default: break
      }
    }
    for m in messages { for f in m.fields { visit(f.type) } }
    return catalog.shapeOrder.filter(found.contains)
  }

  // MARK: - Output

  func render(_ value: JSONValue) -> String {
    var out = ""
    PrettyJSON.write(value, indent: 0, into: &out)
    return out + "\n"
  }
}

/// Two-space indented JSON with members in the given order (for committed, diff-friendly files).
package enum PrettyJSON {
  /// Appends `value` pretty-printed at `indent` levels.
  package static func write(_ value: JSONValue, indent: Int, into out: inout String) {
    let pad = String(repeating: "  ", count: indent)
    switch value {
    case .array(let items) where !items.isEmpty:
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += pad + "  "
        write(item, indent: indent + 1, into: &out)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
      out += pad + "]"
    case .object(let object) where !object.isEmpty:
      out += "{\n"
      for (i, member) in object.members.enumerated() {
        out += pad + "  " + JSONValue.string(member.key).jsonText + ": "
        write(member.value, indent: indent + 1, into: &out)
        out += i + 1 < object.members.count ? ",\n" : "\n"
      }
      out += pad + "}"
    default:
      out += value.jsonText
    }
  }
}
