/// What the validator checks a frame against.
public struct ValidationOptions: Sendable, Hashable {
  /// The direction the frame travelled, when known. `nil` infers it from the type (the two
  /// directions' type sets are disjoint) and never reports `wrong_direction`.
  public var direction: MessageDirection?
  /// The protocol version to check against (the connection's negotiated version). Default
  /// ``KnownVersion/validationDefault``.
  public var protocolVersion: String
  /// Strict mode: every warning becomes an error (so an unknown type does not decode).
  public var strict: Bool
  /// Parsing limits.
  public var limits: JSONLimits
  /// The capabilities the peers negotiated, when known. With a set, an extension message or member
  /// whose capability is not in it is an `extension_not_negotiated` error; `nil` (the default) does
  /// not check negotiation (a frame seen out of context).
  public var negotiatedCapabilities: Set<String>?

  /// Creates options; the defaults check a frame of either direction against
  /// ``KnownVersion/validationDefault``, not strictly.
  public init(
    direction: MessageDirection? = nil, protocolVersion: String = KnownVersion.validationDefault.rawValue,
    strict: Bool = false,
    limits: JSONLimits = .default, negotiatedCapabilities: Set<String>? = nil
  ) {
    self.direction = direction
    self.protocolVersion = protocolVersion
    self.strict = strict
    self.limits = limits
    self.negotiatedCapabilities = negotiatedCapabilities
  }
}
