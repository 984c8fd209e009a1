import VCProtoJSON

/// One member of a message or shape, exactly as it appears on the wire.
public struct FieldSpec: Sendable, Hashable {
  /// The JSON member name (snake_case, except inside raw Claude records).
  public var name: String
  /// The JSON type.
  public var type: FieldType
  /// The protocol versions the member belongs to (as declared here: a member that changed is declared
  /// once per span of versions, each declaration with its own versions).
  public var versions: VersionSet
  /// Whether the member must be present. For client-to-server messages: the backend rejects the
  /// message without it. For server-to-client: the backend always writes the key (maybe as `null`).
  public var required: Bool
  /// Whether `null` is allowed. For optional fields `null` means the same as absent.
  public var nullable: Bool
  /// The allowed values, when the protocol defines a closed set (`invalid_value` otherwise).
  public var allowedValues: [JSONValue]?
  /// Values the real system sends today in an open set (documentation only, never enforced).
  public var knownValues: [String]
  /// The value the receiver assumes when the member is absent.
  public var defaultValue: JSONValue?
  /// An integer member a vcproto server holds within this range: a smaller value counts as the lower
  /// bound, a larger one as the upper (not a validation finding; the real server does not check it).
  public var clamp: ClosedRange<Int64>?
  /// The lengths, in characters, a vcproto server accepts for this string member; any other length
  /// refuses the frame (for `connect`: the handshake fails with `auth_error`). Not a validation
  /// finding.
  public var lengths: ClosedRange<Int>?
  /// A secret: redacted in logs, findings, excerpts and CLI output.
  public var secret: Bool
  /// The capability a peer must negotiate before it may send this member (an extension field).
  public var capability: String?
  /// What the member means (our words; goes into STANDARDS.md and the schemas).
  public var doc: String

  /// Creates a field. Only `name` and `type` are needed for a required, non-null, open member of every
  /// version.
  public init(
    _ name: String, _ type: FieldType, versions: VersionSet = .all, required: Bool = true, nullable: Bool = false,
    allowedValues: [JSONValue]? = nil, knownValues: [String] = [], defaultValue: JSONValue? = nil,
    clamp: ClosedRange<Int64>? = nil, lengths: ClosedRange<Int>? = nil, secret: Bool = false,
    capability: String? = nil, doc: String = ""
  ) {
    self.name = name
    self.type = type
    self.versions = versions
    self.required = required
    self.nullable = nullable
    self.allowedValues = allowedValues
    self.knownValues = knownValues
    self.defaultValue = defaultValue
    self.clamp = clamp
    self.lengths = lengths
    self.secret = secret
    self.capability = capability
    self.doc = doc
  }

  /// How the encoder writes the member when the Swift value is `nil`: required members are written
  /// as `null`; optional members are omitted.
  public var writesNullWhenAbsent: Bool { required }
}
