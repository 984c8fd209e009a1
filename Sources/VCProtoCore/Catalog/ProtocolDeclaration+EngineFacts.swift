import VCProtoJSON

extension ProtocolDeclaration {
  /// For each request type, the frame types that end it: its ``MessageSpec/answers`` then its
  /// ``MessageSpec/refusalTypes``, over every version (a type only some versions have ends the
  /// request only where a server sends it). The client engine's table (``ClientEngine/answerTypes``).
  public var requestEndings: [String: [String]] {
    messages.reduce(into: [:]) { table, spec in
      guard spec.direction == .clientToServer, spec.isModelled else { return }
      for type in spec.answers + spec.refusalTypes where !(table[spec.type] ?? []).contains(type) {
        table[spec.type, default: []].append(type)
      }
    }
  }

  /// The request types whose answer comes after long work (``MessageSpec/isSlow``).
  public var slowRequestTypes: Set<String> {
    Set(messages.filter { $0.direction == .clientToServer && $0.isSlow }.map(\.type))
  }

  /// For each request whose answer the server follows with more frames for the same request
  /// (``MessageSpec/followedBy``): its answers, and the types that follow them, over every version.
  public var followingFrames: [String: (answers: Set<String>, following: [String])] {
    messages.reduce(into: [:]) { table, spec in
      guard spec.direction == .clientToServer, !spec.followedBy.isEmpty else { return }
      table[spec.type] = (Set(spec.answers), spec.followedBy)
    }
  }

  /// The request types about one session (``MessageSpec/isSessionScoped``).
  public var sessionScopedRequestTypes: Set<String> {
    Set(messages.filter { $0.direction == .clientToServer && $0.isSessionScoped }.map(\.type))
  }

  /// The server frame types that end only a request about the session they name
  /// (``MessageSpec/endsOnlyItsSessionsRequest``).
  public var sessionBoundAnswerTypes: Set<String> {
    Set(messages.filter { $0.direction == .serverToClient && $0.endsOnlyItsSessionsRequest }.map(\.type))
  }

  /// The types of `direction` that may cross before the connection is authenticated (those that do
  /// not ``MessageSpec/requiresAuthentication``), in any version.
  public func framesBeforeAuthentication(_ direction: MessageDirection) -> Set<String> {
    Set(messages.filter { $0.direction == direction && $0.isModelled && !$0.requiresAuthentication }.map(\.type))
  }

  /// Every declaration of the member `name` of the message `type`, over its versions (one per span
  /// of versions in which it did not change).
  public func fields(_ name: String, ofMessage type: String) -> [FieldSpec] {
    messages.filter { $0.type.hasSameScalars(as: type) }.flatMap(\.fields).filter { $0.name.hasSameScalars(as: name) }
  }
}

/// The facts the engines read from the catalog instead of spelling them, worked out once.
package enum EngineFacts {
  /// ``ProtocolDeclaration/requestEndings`` of the declaration.
  package static let requestEndings = ProtocolCatalog.declaration.requestEndings
  /// ``ProtocolDeclaration/slowRequestTypes`` of the declaration.
  package static let slowRequestTypes = ProtocolCatalog.declaration.slowRequestTypes
  /// ``ProtocolDeclaration/followingFrames`` of the declaration.
  package static let followingFrames = ProtocolCatalog.declaration.followingFrames
  /// ``ProtocolDeclaration/sessionScopedRequestTypes`` of the declaration.
  package static let sessionScopedRequestTypes = ProtocolCatalog.declaration.sessionScopedRequestTypes
  /// ``ProtocolDeclaration/sessionBoundAnswerTypes`` of the declaration.
  package static let sessionBoundAnswerTypes = ProtocolCatalog.declaration.sessionBoundAnswerTypes
  /// What a client sends before authentication.
  package static let clientFramesBeforeAuthentication = ProtocolCatalog.declaration.framesBeforeAuthentication(
    .clientToServer)
  /// What a server sends before authentication.
  package static let serverFramesBeforeAuthentication = ProtocolCatalog.declaration.framesBeforeAuthentication(
    .serverToClient)

  /// The one declaration of `connect`'s member `name` (the same in every version).
  package static func connectField(_ name: String) -> FieldSpec {
    let declared = ProtocolCatalog.declaration.fields(name, ofMessage: "connect")
    guard declared.count == 1, let field = declared.first else {
      preconditionFailure("connect.\(name) is declared once in the catalog")
    }
    return field
  }

  /// `connect.recent_sessions_limit`: its default and the range a server holds it within.
  package static let recentSessionsLimit: (defaultValue: Int, range: ClosedRange<Int>) = {
    let field = connectField("recent_sessions_limit")
    guard let value = field.defaultValue?.intValue, let clamp = field.clamp else {
      preconditionFailure("connect.recent_sessions_limit declares a default and a clamp")
    }
    return (value, Int(clamp.lowerBound)...Int(clamp.upperBound))
  }()

  /// The `recent_sessions_limit` a server keeps for a `connect` that sent `value`: the value held
  /// within the catalog's range, the default when absent (or not an integer).
  package static func recentSessionsLimit(_ value: Int?) -> Int {
    guard let value else { return recentSessionsLimit.defaultValue }
    return min(max(value, recentSessionsLimit.range.lowerBound), recentSessionsLimit.range.upperBound)
  }

  /// The lengths a server accepts for `connect.client_nonce` (auth v2).
  package static let clientNonceLengths: ClosedRange<Int> = {
    guard let lengths = connectField("client_nonce").lengths else {
      preconditionFailure("connect.client_nonce declares its lengths")
    }
    return lengths
  }()
}
