/// The bound on the lists a peer sends before authentication is complete.
extension Validator {
  /// The messages of the handshake (STANDARDS.md sections 4 and 8): a server reads `connect` before it
  /// knows whether the peer holds the key, and a client reads `hello` from whoever answers.
  package static let handshakeTypes: Set<String> = ["hello", "connect", "connected", "auth_error"]

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
}
