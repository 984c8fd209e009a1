import VCProtoJSON

/// The bound on the lists a peer sends before authentication is complete.
extension Validator {
  /// The messages of the handshake (STANDARDS.md#connection-flow and STANDARDS.md#negotiation-and-auth): a server reads
  /// `connect` before it knows whether the peer holds the key, and a client reads `hello` from whoever answers.
  package static let handshakeTypes: Set<String> = Set(handshakeTypeNames.map(\.description))

  /// ``handshakeTypes`` as static strings, for the decoder's direct path, which matches a frame's `type`
  /// against them byte for byte instead of making and hashing a `String` for every frame.
  package static let handshakeTypeNames: [StaticString] = ["hello", "connect", "connected", "auth_error"]

  /// Whether the validator bounds the length of `field`, a member of `spec`: the list members of the
  /// handshake messages (``handshakeTypes``). The one statement of which lists have the
  /// `handshake_list_too_long` cap: ``checkHandshakeLists(_:_:into:)`` checks these members, and the
  /// JSON Schema generator gives exactly these `maxItems`
  /// (``ValidationOptions/defaultMaxHandshakeListItems``).
  package static func capsListLength(_ field: FieldSpec, of spec: MessageSpec) -> Bool {
    guard case .array = field.type else { return false }
    return handshakeTypes.contains(spec.type)
  }

  /// Reports every list member of a handshake message longer than
  /// ``ValidationOptions/maxHandshakeListItems`` (`handshake_list_too_long`; the rule is
  /// ``HandshakeRules/accepts(listCount:limit:)``; the members are those ``capsListLength(_:of:)``
  /// names).
  func checkHandshakeLists(_ object: JSONObject, _ spec: MessageSpec, into state: inout ValidationState) {
    guard Self.handshakeTypes.contains(spec.type) else { return }
    let limit = options.maxHandshakeListItems
    for field in spec.fields where Self.capsListLength(field, of: spec) {
      guard case .array(let items)? = object[field.name],
        !HandshakeRules.accepts(listCount: items.count, limit: limit)
      else {
        continue
      }
      state.add(
        .error, .handshakeListTooLong, key: field.name,
        "\"\(field.name)\" lists \(items.count) entries; a handshake list has at most \(limit) "
          + "(limit maxHandshakeListItems)")
    }
  }

  /// Reports each broken version rule of the handshake (``HandshakeRules/VersionRule``: `hello.version`
  /// is the server's ceiling; from 0.4.0 on a `connect.protocol_version` below 0.4.0 is refused).
  func checkHandshakeVersions(_ object: JSONObject, _ spec: MessageSpec, into state: inout ValidationState) {
    // Every validated frame comes here: look further only for the types that have such a rule.
    guard HandshakeRules.hasVersionRules(spec.type), let connection = catalog.knownVersion else {
      return
    }
    for field in spec.fields {
      guard let rule = HandshakeRules.versionRule(type: spec.type, member: field.name),
        case .string(let text)? = object[field.name],
        !HandshakeRules.accepts(text, rule, connection: connection)
      else { continue }
      switch rule {
      case .ceiling:
        state.add(
          .error, .invalidValue, key: field.name,
          "hello.version is the server's ceiling, so on a \(connection) connection it is at least \(connection); "
            + "got \(text)")
      case .announcedAtLeastFloor:
        state.add(
          .error, .invalidValue, key: field.name,
          "the server refuses a client announcing \(text), below \(VersionNumber.oldestAccepted) "
            + "(error unsupported_protocol_version, then close)")
      }
    }
  }
}
