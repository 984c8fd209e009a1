import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The engines' conversation facts come from the catalog (STANDARDS.md#state-machine): each test drives
/// an engine and compares what it does with the catalog's fact, read in the test from the
/// ``MessageSpec`` or ``FieldSpec`` itself, so a protocol change is one catalog edit and an engine
/// that kept its own copy of a fact fails here. Frames are the golden vectors' `<type>.valid`.
@Suite struct EngineCatalogFactsTests {
  static let key = "untethered-00112233445566778899aabbccddeeff"

  /// The frame of the vector `<type>.valid` of `version`.
  static func example(_ type: String, _ version: ProtocolVersion) throws -> JSONObject {
    let url = MessageVectorTests.directory.appendingPathComponent("\(version)/\(type).json")
    let vectors = try JSONDecoder().decode([MessageVectorTests.Vector].self, from: Data(contentsOf: url))
    let valid = try #require(vectors.first { $0.id == "\(type).valid" })
    return try #require(try JSONReader().parse(valid.frame).objectValue, "\(type).valid is an object")
  }

  /// A client engine authenticated (auth v1) on a connection negotiated to `version`.
  static func readyClient(_ version: ProtocolVersion) throws -> ClientEngine {
    var engine = ClientEngine(ClientConfiguration(apiKey: key, allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(
      .transportOpened(engine.currentTransport!, clientNonce: String(repeating: "ab", count: 16)), now: 0)
    let v = JSONValue.string(version.rawValue)
    _ = try engine.handle(
      .frameReceived(
        .frame(
          "hello",
          [
            "message": "m", "instructions": "i", "version": v, "auth_version": 1, "protocol_versions": [v],
            "auth_versions": [1],
          ])), now: 0)
    _ = try engine.handle(
      .frameReceived(.frame("connected", ["message": "m", "session_id": "c-1", "negotiated_protocol_version": v])),
      now: 0)
    #expect(engine.state == .ready, "\(version)")
    return engine
  }

  /// The client frames the engine sends itself (`send` refuses them).
  static let enginesOwn: Set<String> = ["connect", "subscribe", "unsubscribe", "message_ack"]

  /// The frame types that end a request of `spec`, per the catalog (its version's projection).
  static func endings(_ spec: MessageSpec) -> [String] { spec.answers + spec.refusalTypes }

  /// Every request of every version waits exactly when the catalog gives it answers, until the
  /// deadline the catalog's `isSlow` says; each of its answer and refusal types ends it.
  @Test(arguments: ProtocolVersion.allCases) func requestsWaitForTheCatalogsAnswers(_ version: ProtocolVersion) throws {
    let catalog = ProtocolCatalog.catalog(version)
    let timing = ClientTiming()
    var checked = 0
    for spec in catalog.messages(.clientToServer) where spec.isModelled && !Self.enginesOwn.contains(spec.type) {
      let request = try Self.example(spec.type, version)
      var engine = try Self.readyClient(version)
      let sent = try engine.handle(.send(request, requestId: "r"), now: 1)
      let waits = !Self.endings(spec).isEmpty
      #expect(engine.occupancy.pendingRequests == (waits ? 1 : 0), "\(version) \(spec.type)")
      let deadline = 1 + (spec.isSlow ? timing.slowRequestTimeoutMs : timing.requestTimeoutMs)
      #expect(sent.contains(.armTimer(.requestDeadline, at: deadline)) == waits, "\(version) \(spec.type) deadline")
      for ending in Self.endings(spec) {
        var engine = try Self.readyClient(version)
        _ = try engine.handle(.send(request, requestId: "r"), now: 1)
        let answer = try Self.example(ending, version)
        let actions = try engine.handle(.frameReceived(answer), now: 2)
        #expect(
          actions == [.deliver(.answered(requestId: "r", frame: answer, version: version))],
          "\(version) \(spec.type) \(ending)")
        checked += 1
      }
    }
    #expect(checked >= 20, "\(checked) answers checked")
  }

  /// 0.2.0's `set_directory` is answered with `ack` ("Directory set"), so it waits for it like any
  /// request: its `ack` no longer ends a `prompt` sent after it, whose own `ack` comes next.
  @Test func theAckOfSetDirectoryDoesNotAnswerALaterPrompt() throws {
    var engine = try Self.readyClient(.v0_2_0)
    _ = try engine.handle(.send(try Self.example("set_directory", .v0_2_0), requestId: nil), now: 1)
    _ = try engine.handle(.send(try Self.example("prompt", .v0_2_0), requestId: "p"), now: 2)
    let directorySet = JSONObject.frame("ack", ["message": "Directory set"])
    #expect(try engine.handle(.frameReceived(directorySet), now: 3) == [.deliver(.received(directorySet))])
    let processing = JSONObject.frame("ack", ["message": "Processing prompt..."])
    #expect(
      try engine.handle(.frameReceived(processing), now: 4) == [.deliver(.answered(requestId: "p", frame: processing))])
  }

  /// A session-scoped request (the catalog's `isSessionScoped`) is not ended by an answer naming
  /// another session; any other request is. Each answer type of each request, on every version.
  @Test(arguments: ProtocolVersion.allCases) func answersNamingAnotherSessionEndOnlyOtherRequests(
    _ version: ProtocolVersion
  ) throws {
    let catalog = ProtocolCatalog.catalog(version)
    var scoped = 0
    for spec in catalog.messages(.clientToServer) where spec.field("session_id") != nil {
      for ending in Self.endings(spec) {
        var answer = try Self.example(ending, version)
        guard answer["session_id"]?.stringValue != nil else { continue }
        answer["session_id"] = "another-session"
        let bound = catalog.message(ending)?.endsOnlyItsSessionsRequest ?? false
        var engine = try Self.readyClient(version)
        _ = try engine.handle(.send(try Self.example(spec.type, version), requestId: "r"), now: 1)
        let ends = !spec.isSessionScoped && !bound
        let expected: [ClientAction] = [
          .deliver(
            ends ? .answered(requestId: "r", frame: answer, version: version) : .received(answer, version: version))
        ]
        #expect(try engine.handle(.frameReceived(answer), now: 2) == expected, "\(version) \(spec.type) \(ending)")
        if spec.isSessionScoped || bound { scoped += 1 }
      }
    }
    #expect(scoped >= 3, "\(scoped) session-scoped pairs checked")
  }

  /// What the server sends after a request's answer, for the same request (the catalog's
  /// `followedBy`: `start_recipe`'s `recipe_started`, then `ack` "Starting recipe...") ends no later
  /// request that the same type would answer (a `prompt` sent after it waits for its own `ack`).
  @Test(arguments: ProtocolVersion.allCases) func framesFollowingAnAnswerEndNoLaterRequest(_ version: ProtocolVersion)
    throws
  {
    let catalog = ProtocolCatalog.catalog(version)
    var checked = 0
    for spec in catalog.messages(.clientToServer) where !spec.followedBy.isEmpty {
      for follower in spec.followedBy {
        for later in catalog.messages(.clientToServer)
        where Self.endings(later).contains(follower) && !Self.enginesOwn.contains(later.type) {
          var engine = try Self.readyClient(version)
          _ = try engine.handle(.send(try Self.example(spec.type, version), requestId: "r"), now: 1)
          _ = try engine.handle(.send(try Self.example(later.type, version), requestId: "q"), now: 2)
          let answer = try Self.example(try #require(spec.answers.first), version)
          #expect(
            try engine.handle(.frameReceived(answer), now: 3) == [.deliver(.answered(requestId: "r", frame: answer))])
          let following = try Self.example(follower, version)
          #expect(
            try engine.handle(.frameReceived(following), now: 4) == [.deliver(.received(following))],
            "\(version) \(spec.type): \(follower) ended \(later.type)")
          #expect(
            try engine.handle(.frameReceived(following), now: 5) == [
              .deliver(.answered(requestId: "q", frame: following))
            ],
            "\(version) \(later.type) still waits for its \(follower)")
          checked += 1
        }
      }
    }
    #expect(checked >= 2, "\(checked) followed answers checked")
  }

  /// No other answer type ends a request: every frame type that ends some request, sent while a
  /// request of another type waits, is delivered as received and the request still waits.
  @Test(arguments: ProtocolVersion.allCases) func noOtherAnswerEndsARequest(_ version: ProtocolVersion) throws {
    let catalog = ProtocolCatalog.catalog(version)
    let requests = catalog.messages(.clientToServer).filter { !Self.endings($0).isEmpty }
    let answerTypes = Set(requests.flatMap(Self.endings))
    for spec in requests {
      for other in answerTypes.subtracting(Self.endings(spec)).sorted() {
        var engine = try Self.readyClient(version)
        _ = try engine.handle(.send(try Self.example(spec.type, version), requestId: "r"), now: 1)
        let frame = try Self.example(other, version)
        #expect(
          try engine.handle(.frameReceived(frame), now: 2) == [.deliver(.received(frame, version: version))],
          "\(spec.type) \(other)")
        #expect(engine.occupancy.pendingRequests == 1)
      }
    }
  }

  /// A server engine before authentication accepts exactly the client types the catalog allows
  /// before it (`ping` answered with `pong`, `connect` authenticating); every other type of every
  /// version is refused with `auth_error` and close.
  @Test func theServerAcceptsBeforeAuthenticationWhatTheCatalogAllows() throws {
    var allowed: Set<String> = []
    for version in ProtocolVersion.allCases {
      for spec in ProtocolCatalog.catalog(version).messages(.clientToServer) where spec.isModelled {
        var server = ServerEngine(
          ServerConfiguration(offer: ServerOffer(protocolVersions: ProtocolVersion.allStrings), apiKey: Self.key))
        _ = try server.handle(.transportOpened(challenge: nil), now: 0)
        let actions = try server.handle(.frameReceived(try Self.example(spec.type, version)), now: 1)
        let refused = actions.contains(.closeTransport(.notAuthenticated))
        #expect(refused == spec.requiresAuthentication, "\(version) \(spec.type)")
        if !refused { allowed.insert(spec.type) }
      }
    }
    #expect(allowed == ["connect", "ping"])
    #expect(ClientTransitions.framesBeforeAuthentication == allowed)
  }

  /// What each engine sends before authentication is what the catalog allows in that direction:
  /// the client's `connect` (and nothing else before `connected`), the server's `hello`, `auth_error`
  /// and `connected`, each a type that does not require authentication.
  @Test func theEnginesSendBeforeAuthenticationOnlyWhatTheCatalogAllows() throws {
    let declaration = ProtocolCatalog.declaration
    func allowed(_ type: String, _ direction: MessageDirection) -> Bool {
      declaration.messages.contains { $0.type == type && $0.direction == direction && !$0.requiresAuthentication }
    }
    var client = ClientEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true))
    var sent: [JSONObject] = []
    func collect(_ actions: [ClientAction]) {
      for case .send(let message) in actions { sent.append(message.object) }
    }
    collect(try client.handle(.start, now: 0))
    collect(
      try client.handle(
        .transportOpened(client.currentTransport!, clientNonce: String(repeating: "ab", count: 16)), now: 0))
    collect(try client.handle(.frameReceived(try Self.example("hello", .v0_5_0)), now: 0))
    #expect(sent.map { $0["type"]?.stringValue } == ["connect"])
    for frame in sent { #expect(allowed(frame["type"]?.stringValue ?? "", .clientToServer)) }
    for type in ServerTransitions.framesBeforeAuthentication { #expect(allowed(type, .serverToClient), "\(type)") }
    #expect(ServerTransitions.framesBeforeAuthentication == declaration.framesBeforeAuthentication(.serverToClient))
    #expect(ServerTransitions.framesBeforeAuthentication.isSuperset(of: ["hello", "pong", "auth_error", "connected"]))
  }

  /// The `recent_sessions_limit` a server delivers is the catalog's: its default when absent, and a
  /// value held within the declared clamp.
  @Test func theServerHoldsRecentSessionsLimitWithinTheCatalogsClamp() throws {
    let field = try #require(ProtocolCatalog.latest.message("connect")?.field("recent_sessions_limit"))
    let clamp = try #require(field.clamp)
    let defaultValue = try #require(field.defaultValue?.intValue)
    let low = Int(clamp.lowerBound)
    let high = Int(clamp.upperBound)
    let cases: [(sent: Int?, kept: Int)] = [
      (nil, defaultValue), (low - 1, low), (low, low), (high, high), (high + 1, high), (.min, low), (.max, high),
    ]
    for (value, kept) in cases {
      var server = ServerEngine(ServerConfiguration(offer: ServerOffer(protocolVersions: ["0.5.0"]), apiKey: Self.key))
      _ = try server.handle(.transportOpened(challenge: nil), now: 0)
      var connect = JSONObject.frame("connect", ["api_key": .string(Self.key)])
      if let value { connect["recent_sessions_limit"] = JSONValue(integerLiteral: value) }
      let delivered = try server.handle(.frameReceived(connect), now: 1).compactMap { action -> Int? in
        if case .deliver(.authenticated(_, _, let limit)) = action { limit } else { nil }
      }
      #expect(delivered == [kept], "sent \(String(describing: value))")
    }
  }

  /// An auth v2 `connect` authenticates exactly when its `client_nonce` has a length the catalog
  /// declares (both ends inclusive).
  @Test func theServerAcceptsTheCatalogsNonceLengths() throws {
    let lengths = try #require(ProtocolCatalog.latest.message("connect")?.field("client_nonce")?.lengths)
    let challenge = String(repeating: "a1", count: 32)
    for length in [lengths.lowerBound - 2, lengths.lowerBound, lengths.upperBound, lengths.upperBound + 2] {
      var server = ServerEngine(
        ServerConfiguration(offer: ServerOffer(protocolVersions: ["0.5.0"], authVersions: [1, 2]), apiKey: Self.key))
      let hello = try server.handle(.transportOpened(challenge: challenge), now: 0).sentFrames
      var client = ClientEngine(ClientConfiguration(apiKey: Self.key))
      _ = try client.handle(.start, now: 0)
      _ = try client.handle(
        .transportOpened(client.currentTransport!, clientNonce: String(repeating: "0", count: length)), now: 0)
      let connect = try client.handle(.frameReceived(try #require(hello.first)), now: 0).compactMap { action in
        if case .send(let message) = action { message.object } else { nil }
      }
      _ = try server.handle(.frameReceived(try #require(connect.first)), now: 1)
      #expect((server.state == .authenticated) == lengths.contains(length), "a nonce of \(length) characters")
    }
  }

  /// Every ``FrameType`` but `other` names one type of the catalog, and no two types share one: a
  /// misspelt name in its table would leave its case unreachable.
  @Test func everyFrameTypeNamesACatalogType() {
    var named: [FrameType: [String]] = [:]
    for type in Set(ProtocolCatalog.declaration.messages.filter(\.isModelled).map(\.type)) {
      let frameType = FrameType(type)
      if frameType != .other { named[frameType, default: []].append(type) }
    }
    for frameType in FrameType.allCases where frameType != .other {
      #expect(named[frameType]?.count == 1, "\(frameType): \(named[frameType] ?? [])")
    }
  }
}
