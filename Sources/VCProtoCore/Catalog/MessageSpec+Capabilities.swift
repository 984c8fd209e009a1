import VCProtoJSON

extension MessageSpec {
  /// One use of an extension in a frame.
  public struct CapabilityUse: Sendable, Hashable {
    /// The capability it needs.
    public var name: String
    /// Where: `/type` for an extension message, `/member` for an extension member.
    public var pointer: String
    /// `"message \"heartbeat\""` or `"member \"idempotency_key\""`.
    public var what: String
  }

  /// Every capability a frame of this type uses: the message's own, and those of extension members
  /// present with a non-null value.
  public func capabilitiesUsed(in object: JSONObject) -> [CapabilityUse] {
    var uses: [CapabilityUse] = []
    if let capability {
      uses.append(CapabilityUse(name: capability, pointer: "/type", what: "message \"\(type)\""))
    }
    for field in fields {
      guard let capability = field.capability, let value = object[field.name], !value.isNull else { continue }
      uses.append(
        CapabilityUse(
          name: capability, pointer: JSONPointer.appending("", key: field.name), what: "member \"\(field.name)\""))
    }
    return uses
  }

  /// The uses whose capability is not in `negotiated`.
  public func unnegotiatedCapabilities(in object: JSONObject, negotiated: Set<String>) -> [CapabilityUse] {
    capabilitiesUsed(in: object).filter { !negotiated.contains($0.name) }
  }
}
