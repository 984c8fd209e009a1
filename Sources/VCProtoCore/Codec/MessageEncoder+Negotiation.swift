import VCProtoJSON

extension MessageEncoder {
  /// Encodes a client message, refusing one that uses an extension outside `negotiated` (the
  /// capabilities of the connection's negotiation outcome).
  public func encode(_ message: ClientMessage, negotiated: Set<String>) throws(ExtensionNotNegotiated) -> [UInt8] {
    try refuseUnnegotiated(message.type, message.requiredCapabilities, negotiated)
    return encode(message)
  }

  /// Encodes a server message, refusing one that uses an extension outside `negotiated`.
  public func encode(_ message: ServerMessage, negotiated: Set<String>) throws(ExtensionNotNegotiated) -> [UInt8] {
    try refuseUnnegotiated(message.type, message.requiredCapabilities, negotiated)
    return encode(message)
  }

  private func refuseUnnegotiated(_ type: String, _ required: [String], _ negotiated: Set<String>)
    throws(ExtensionNotNegotiated)
  {
    let missing = required.filter { !negotiated.contains($0) }
    if !missing.isEmpty { throw ExtensionNotNegotiated(messageType: type, missingCapabilities: missing) }
  }
}
