import VCProtoJSON

/// What the validator checks a frame against.
public struct ValidationOptions: Sendable, Hashable {
  /// The direction the frame travelled, when known. `nil` infers it from the type (the two
  /// directions' type sets are disjoint) and never reports `wrong_direction`.
  public var direction: MessageDirection?
  /// The protocol version to check against: the connection's negotiated version. There is no
  /// default: the caller chooses (a frame's validity depends on it, and no real peer speaks 0.2.0).
  public var version: ProtocolVersion
  /// Strict mode: every warning becomes an error (so an unknown type does not decode).
  public var strict: Bool
  /// Parsing limits.
  public var limits: JSONLimits
  /// The capabilities the peers negotiated, when known. With a set, an extension message or member
  /// whose capability is not in it is an `extension_not_negotiated` error; `nil` (the default) does
  /// not check negotiation (a frame seen out of context).
  public var negotiatedCapabilities: Set<String>?
  /// Most findings reported for one frame (default 100). Defends against a frame that draws one
  /// finding per value (900,000 `null`s where objects are required): past the cap findings are only
  /// counted, and the report ends with one `findings_suppressed` finding saying how many more there
  /// were; it is an error when any of them was, so the verdict is the same as without the cap.
  public var maxFindings: Int
  /// Most entries in one list of a handshake message (`protocol_versions`, `auth_versions`,
  /// `capabilities` of `hello`, `connect` and `connected`; default 64, ten times what the protocol
  /// defines). Defends against a peer making the other side sort and intersect 100,000 entries
  /// before authentication. Finding code `handshake_list_too_long`.
  public var maxHandshakeListItems: Int
  /// The default of ``maxHandshakeListItems``, which ``Negotiator`` applies to a client's announcement.
  public static let defaultMaxHandshakeListItems = 64

  /// Creates options for checking frames of `version`; the other defaults check a frame of either
  /// direction, not strictly.
  public init(
    direction: MessageDirection? = nil, version: ProtocolVersion,
    strict: Bool = false, limits: JSONLimits = .default, negotiatedCapabilities: Set<String>? = nil,
    maxFindings: Int = 100, maxHandshakeListItems: Int = ValidationOptions.defaultMaxHandshakeListItems
  ) {
    self.direction = direction
    self.version = version
    self.strict = strict
    self.limits = limits
    self.negotiatedCapabilities = negotiatedCapabilities
    self.maxFindings = maxFindings
    self.maxHandshakeListItems = maxHandshakeListItems
  }
}
