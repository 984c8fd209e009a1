import VCProtoJSON

/// One message type of one protocol version.
public struct MessageSpec: Sendable, Hashable {
  /// The `type` value on the wire.
  public var type: String
  /// Who sends it.
  public var direction: MessageDirection
  /// How it stands in the real system (in the oldest of its versions; see ``statusChanges``).
  public var status: MessageStatus
  /// The protocol versions the type belongs to. A type whose members changed is still declared once:
  /// its members carry their own versions.
  public var versions: VersionSet
  /// A different status from a version on (e.g. `connected`: documented only until 0.4.0, sent since).
  public var statusChanges: [ProtocolVersion: MessageStatus]
  /// The members other than `type`, in canonical (encoding) order.
  public var fields: [FieldSpec]
  /// Cross-member rules.
  public var rules: [FieldRule]
  /// The capability both peers must have negotiated before it may be sent (extension messages).
  public var capability: String?
  /// Whether the connection must be authenticated first. Client to server: the server refuses the
  /// frame before authentication (`auth_error`, then close); only `connect` and `ping` are accepted
  /// before, in every version. Server to client: the server sends it only on an authenticated
  /// connection; `hello`, `pong`, `auth_error`, `error` and `connected` may come before. Both
  /// engines and the ``ConversationObserver`` read this (``ProtocolDeclaration/framesBeforeAuthentication(_:)``).
  public var requiresAuthentication: Bool
  /// Requests: the `error` messages with which the server's handler refuses a bad request of this
  /// type synchronously, instead of its answer, in any version (`<...>` stands for any text). Only
  /// those that can be tied to the request (STANDARDS.md#requests): not the messages the
  /// server may also send after it answered, nor those any handler sends. The client engine ends the
  /// oldest waiting request of the type with such an `error`.
  public var refusals: [String]
  /// Requests: the frame types with which the server answers this request (its success), in any of
  /// its versions; a type the version lacks is left out of that version's projection. The server
  /// answers one socket's requests in order, so the oldest waiting request a frame of one of these
  /// types can answer ends (STANDARDS.md#requests). Empty: the request has no answer the
  /// client waits for.
  public var answers: [String]
  /// Requests: the frame types other than `error` with which the server refuses or fails this
  /// request instead of answering it (`command_error`, `infer_name_error`, ...), in any of its
  /// versions; they end the request as an answer does. 0.2.0's `session_locked` ends only a request
  /// about the session it names.
  public var refusalTypes: [String]
  /// Requests: the answer comes after long work the real server bounds at an hour, so the client
  /// waits ``ClientTiming/slowRequestTimeoutMs`` instead of ``ClientTiming/requestTimeoutMs``.
  public var isSlow: Bool
  /// Requests: the frame types the server sends for the same request after one of its ``answers``
  /// (`start_recipe`: `recipe_started`, then `ack` "Starting recipe..."). They end no other request:
  /// the client engine keeps the request's place for them.
  public var followedBy: [String]
  /// Requests about one session (their `session_id`): an answer or refusal that names a session
  /// (`session_id`) ends only the request about that session; one that names none ends the oldest.
  public var isSessionScoped: Bool
  /// Server frames that end a request (an answer or refusal type) only when the request is about
  /// the session the frame names (`session_id` against the request's `session_id`,
  /// `resume_session_id` or `new_session_id`): 0.2.0's `session_locked`.
  public var endsOnlyItsSessionsRequest: Bool
  /// What the message is for (our words).
  public var doc: String

  /// Creates a message spec.
  public init(
    _ type: String, _ direction: MessageDirection, versions: VersionSet = .all, status: MessageStatus = .implemented,
    statusChanges: [ProtocolVersion: MessageStatus] = [:],
    requiresAuthentication: Bool = true, capability: String? = nil, rules: [FieldRule] = [],
    refusals: [String] = [], answers: [String] = [], refusalTypes: [String] = [], isSlow: Bool = false,
    followedBy: [String] = [], isSessionScoped: Bool = false, endsOnlyItsSessionsRequest: Bool = false, doc: String,
    fields: [FieldSpec]
  ) {
    self.type = type
    self.direction = direction
    self.status = status
    self.versions = versions
    self.statusChanges = statusChanges
    self.fields = fields
    self.rules = rules
    self.refusals = refusals
    self.answers = answers
    self.refusalTypes = refusalTypes
    self.isSlow = isSlow
    self.followedBy = followedBy
    self.isSessionScoped = isSessionScoped
    self.endsOnlyItsSessionsRequest = endsOnlyItsSessionsRequest
    self.capability = capability
    self.requiresAuthentication = requiresAuthentication
    self.doc = doc
  }

  /// The status in `version`: the latest change at or before it, else ``status``.
  public func status(in version: ProtocolVersion) -> MessageStatus {
    statusChanges.filter { $0.key <= version }.max { $0.key < $1.key }?.value ?? status
  }

  /// The field named `name` (the same Unicode scalars), if declared.
  public func field(_ name: String) -> FieldSpec? {
    fields.first { $0.name.hasSameScalars(as: name) }
  }

  /// `false` for types that never existed (kept in the catalog only to say so).
  public var isModelled: Bool { status != .nonexistent }
}
