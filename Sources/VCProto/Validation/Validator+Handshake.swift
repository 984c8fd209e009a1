/// The bound on the lists a peer sends before authentication is complete.
extension Validator {
  /// The messages of the handshake (STANDARDS.md sections 4 and 8): a server reads `connect` before it
  /// knows whether the peer holds the key, and a client reads `hello` from whoever answers.
  package static let handshakeTypes: Set<String> = Set(handshakeTypeNames.map(\.description))

  /// ``handshakeTypes`` as static strings, for the decoder's direct path, which matches a frame's `type`
  /// against them byte for byte instead of making and hashing a `String` for every frame.
  package static let handshakeTypeNames: [StaticString] = ["hello", "connect", "connected", "auth_error"]

  /// Reports every list member of a handshake message longer than
  /// ``ValidationOptions/maxHandshakeListItems`` (`handshake_list_too_long`), so that negotiation never
  /// spends time on a list of 100,000 versions or capabilities.
  func checkHandshakeLists(_ object: JSONObject, _ spec: MessageSpec, into state: inout ValidationState) {
    guard Self.handshakeTypes.contains(spec.type) else { return }
    let limit = options.maxHandshakeListItems
    for field in spec.fields {
      guard case .array = field.type, case .array(let items)? = object[field.name], items.count > limit else {
        continue
      }
      state.add(
        .error, .handshakeListTooLong, key: field.name,
        "\"\(field.name)\" lists \(items.count) entries; a handshake list has at most \(limit) "
          + "(limit maxHandshakeListItems)")
    }
  }

  /// The version rules of the handshake that depend on the connection's version (the real server's,
  /// STANDARDS.md section 8):
  /// - `hello.version` is the server's ceiling, so on a connection of version V it is a version no
  ///   lower than V (0.2.0 servers are not checked: they spoke only 0.2.0);
  /// - from 0.4.0 on, a `connect.protocol_version` that parses and is below 0.4.0 is refused by the
  ///   server (`unsupported_protocol_version`) before it checks the key.
  func checkHandshakeVersions(_ object: JSONObject, _ spec: MessageSpec, into state: inout ValidationState) {
    // Every validated frame comes here: parse the connection's version only for the two types checked.
    guard spec.type == "hello" || spec.type == "connect", let connection = catalog?.knownVersion else { return }
    let version = connection.protocolVersion
    switch spec.type {
    case "hello" where connection > .v0_2_0:
      guard case .string(let text)? = object["version"], let ceiling = ProtocolVersion(text), ceiling < version
      else { return }
      state.add(
        .error, .invalidValue, key: "version",
        "hello.version is the server's ceiling, so on a \(connection) connection it is at least \(connection); "
          + "got \(text)")
    case "connect" where connection >= .v0_4_0:
      let floor = ProtocolVersion(0, 4, 0)
      guard case .string(let text)? = object["protocol_version"], let announced = ProtocolVersion(announced: text),
        announced < floor
      else { return }
      state.add(
        .error, .invalidValue, key: "protocol_version",
        "the server refuses a client announcing \(text), below \(floor) "
          + "(error unsupported_protocol_version, then close)")
    default:
      return
    }
  }
}
