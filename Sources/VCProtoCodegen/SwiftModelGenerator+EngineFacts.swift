import VCProtoCore
import VCProtoJSON

extension SwiftModelGenerator {
  /// A member the connection engines read from a typed message: its direction, its name on the wire,
  /// and what it is for (the generated property's documentation).
  package struct EngineMember: Sendable {
    package var direction: MessageDirection
    package var name: String
    package var doc: String

    /// The generated property: `session_id` -> `sessionIdMember`.
    package var property: String { SwiftModelGenerator.camelCase(name) + "Member" }
  }

  /// The members the engines read besides the `type`: the client engine matches and attributes a
  /// request it sends by its session members, and an answer it receives by `session_id` (and
  /// acknowledges a frame by `message_id`).
  package static let engineMembers: [EngineMember] = [
    EngineMember(
      direction: .clientToServer, name: "session_id",
      doc: "The session a request is about, matched against its answer's."),
    EngineMember(
      direction: .clientToServer, name: "resume_session_id",
      doc: "The session a `prompt` resumes, for attributing an `error` that names it."),
    EngineMember(
      direction: .clientToServer, name: "new_session_id",
      doc: "The session a `prompt` creates, subscribed to after a reconnect until it is ready."),
    EngineMember(
      direction: .serverToClient, name: "session_id",
      doc: "The session a frame is about: which request of that session it answers."),
    EngineMember(
      direction: .serverToClient, name: "message_id",
      doc: "The frame's `message_id` (the `message_ack` extension): acknowledged, and a replay recognised."),
  ]

  /// `EngineFacts.swift`: for each of ``engineMembers``, a property of the message enum reading the
  /// member from the typed message (the engines never hold a tree of a frame): the member its type
  /// declares (a string), else a string member of that name the sender added (kept in
  /// `additionalMembers`, as a tree would have it), else `nil`.
  func engineFacts() -> String {
    var s = Self.header
    s += "// What the connection engines read of a typed message besides its type (`EngineMessageFactsTests`\n"
    s += "// holds each reader to the frame's own member over every message vector).\n"
    for direction in [MessageDirection.clientToServer, .serverToClient] {
      let name = direction == .clientToServer ? "ClientMessage" : "ServerMessage"
      s += "\nextension \(name) {\n"
      var first = true
      for member in Self.engineMembers where member.direction == direction {
        if !first { s += "\n" }
        first = false
        s += "  /// The message's `\(member.name)` string, declared or added; `nil` when it has none.\n"
        s += "  /// \(member.doc)\n"
        s += "  package var \(member.property): String? {\n    switch self {\n"
        for m in modelled(direction) {
          let variants = plan.messages[m.type] ?? []
          for v in variants {
            let pattern =
              variants.count > 1
              ? ".\(Self.identifier(m.type))(.\(ModelPlan.caseName(v.versions[0]))(let m))"
              : ".\(Self.identifier(m.type))(let m)"
            s += "    case \(pattern): return \(read(member.name, in: v))\n"
          }
        }
        s += "    case .unknown(let object): return object[\"\(member.name)\"]?.stringValue\n"
        s += "    }\n  }\n"
      }
      s += "}\n"
    }
    return s
  }

  /// The expression reading member `name` of a payload `m` of `variant`: the declared property when
  /// the variant declares it (a string), else the added member.
  private func read(_ name: String, in variant: ModelPlan.Variant) -> String {
    guard let field = variant.fields.first(where: { $0.name == name }) else {
      return "m.additionalMembers[\"\(name)\"]?.stringValue"
    }
    precondition(
      Self.enumValues(field) == nil && swiftType(field.type) == "String",
      "\(variant.name).\(name): the engines read it as a string")
    return "m.\(Self.identifier(name))"
  }
}
