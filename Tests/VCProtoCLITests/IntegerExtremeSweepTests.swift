import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Every integer a peer can send, at the edges of 64 bits, in context (issue 29).
///
/// The sites are read from the catalog when the test runs: every integer member of every message
/// of every version's catalog, nested shapes and array elements included (seq, offsets, counts,
/// limits, `retry_after_ms`, sizes, times, auth versions), so a new integer member is swept without
/// editing this file. Each site gets each of ``extremes`` in two frames (the catalog's minimal frame:
/// required members only, the first allowed value of each closed set, `true`; and its full frame:
/// every member, the last allowed value, `false`, so that a 0.4.0 gap is `client_ahead` and a
/// history is incomplete), sent where the frame means something: after a handshake negotiated
/// every capability the engines know and after a `subscribe` with a cursor (a handshake frame replaces
/// the real one in the handshake itself). Each conversation runs through a client engine and a server
/// engine talking to each other (the frame reaches the engine it is addressed to) and, all of one
/// version's conversations as one capture, through `vcproto validate`.
///
/// What must hold (STANDARDS.md#peer-integers): nothing traps; a value below the catalog's
/// minimum (the positions and counts the protocol says are non-negative) is an `invalid_value`
/// finding of `vcproto validate` at that member; and the engines never trust such a value: no
/// negative cursor, no purge from a negative position, no message delivered at a negative position,
/// no negative `last_seq`/`from_offset` sent or handed to the application, no timer set in the past or
/// more than two hours ahead. The sweep takes a few seconds.
@Suite struct IntegerExtremeSweepTests {
  static let extremes: [Int64] = [.min, .min + 1, -1, 0, 9_007_199_254_740_993, .max - 1, .max]
  static let key = "untethered-00112233445566778899aabbccddeeff"
  /// The capabilities offered and asked for: every one the engines act on without sealing frames.
  static let capabilities = [
    Capability.heartbeat, Capability.draining, Capability.disconnect, Capability.messageAck,
    Capability.idempotentPrompt,
  ]
  static let session = "s"
  /// No timer may be set further ahead than this (the longest wait is the 1 h drain cap plus jitter).
  static let timerBound: Int64 = 7_200_000

  // MARK: sites

  /// One step from a value into a member or (always the first) element, with the concrete type reached.
  enum Step: Hashable {
    case member(String)
    case element
  }

  /// An integer member of a message, reached by `path`.
  struct Site: Hashable, CustomStringConvertible {
    var type: String
    var direction: MessageDirection
    var path: [Step]
    /// The type of the value each step reaches (never `oneOf`: each alternative is its own site).
    var types: [FieldType]
    var minimum: Int64?

    var pointer: String {
      path.map {
        switch $0 {
        case .member(let name):
          "/" + name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        case .element: "/0"
        }
      }.joined()
    }
    var description: String { "\(type)\(pointer)" }
  }

  /// Every integer site of `catalog`'s messages.
  static func sites(_ catalog: ProtocolCatalog) -> [Site] {
    var found: [Site] = []
    var seen: Set<String> = []
    func walk(_ type: FieldType, _ message: MessageSpec, _ path: [Step], _ types: [FieldType], _ shapes: Set<String>) {
      switch type {
      case .integer(let minimum):
        let site = Site(
          type: message.type, direction: message.direction, path: path, types: types + [type], minimum: minimum)
        if seen.insert("\(message.direction) \(site)").inserted { found.append(site) }
      case .array(let element):
        walk(element, message, path + [.element], types + [type], shapes)
      case .shape(let name):
        guard !shapes.contains(name), let shape = catalog.shapes[name] else { return }
        for field in shape.fields {
          walk(field.type, message, path + [.member(field.name)], types + [type], shapes.union([name]))
        }
      case .oneOf(let alternatives):
        for alternative in alternatives { walk(alternative, message, path, types, shapes) }
      case .string, .number, .boolean, .any, .object:
        return
      }
    }
    for message in catalog.messages {
      for field in message.fields { walk(field.type, message, [.member(field.name)], [], []) }
    }
    return found
  }

  // MARK: frames

  /// An example value of `type`: `full` fills every member and array, picks the last allowed value and
  /// `false`; otherwise required members only, the first allowed value and `true`.
  static func example(_ type: FieldType, _ field: FieldSpec?, catalog: ProtocolCatalog, full: Bool, depth: Int = 0)
    -> JSONValue
  {
    if let allowed = field?.allowedValues, let value = full ? allowed.last : allowed.first { return value }
    switch type {
    case .string(let format):
      switch format {
      case .plain: return field?.name == "session_id" ? .string(session) : "x"
      case .dateTime: return "2026-01-11T17:25:32Z"
      case .uuid: return "123e4567-e89b-42d3-a456-426614174000"
      case .hex: return "00"
      case .version: return .string(catalog.version)
      }
    case .integer(let minimum): return JSONValue(integerLiteral: Int(max(minimum ?? 1, 1)))
    case .number: return 1
    case .boolean: return .bool(!full)
    case .any: return .null
    case .object: return .object(JSONObject())
    case .shape(let name):
      guard depth < 4, let shape = catalog.shapes[name] else { return .object(JSONObject()) }
      return .object(object(shape.fields, catalog: catalog, full: full, depth: depth + 1))
    case .array(let element):
      return full && depth < 4 ? .array([example(element, nil, catalog: catalog, full: full, depth: depth + 1)]) : []
    case .oneOf(let alternatives):
      return alternatives.first.map { example($0, field, catalog: catalog, full: full, depth: depth) } ?? .null
    }
  }

  static func object(_ fields: [FieldSpec], catalog: ProtocolCatalog, full: Bool, depth: Int) -> JSONObject {
    var object = JSONObject()
    for field in fields where full || field.required {
      object[field.name] =
        !full && field.nullable ? .null : example(field.type, field, catalog: catalog, full: full, depth: depth)
    }
    return object
  }

  /// `value` with the site's integer set to `integer`, containers made (from examples) where missing.
  static func setting(
    _ integer: JSONValue, at path: ArraySlice<Step>, types: ArraySlice<FieldType>, in value: JSONValue,
    catalog: ProtocolCatalog, full: Bool
  ) -> JSONValue {
    guard let step = path.first, let type = types.first else { return integer }
    func container(_ current: JSONValue?) -> JSONValue {
      switch (current, path.dropFirst().first) {
      case (.object?, .member?), (.array?, .element?): return current!
      default:
        var made = example(type, nil, catalog: catalog, full: full)
        if case .array(let elements) = made, elements.isEmpty, case .array(let element) = type {
          made = .array([example(element, nil, catalog: catalog, full: full)])
        }
        return made
      }
    }
    switch step {
    case .member(let name):
      var object = value.objectValue ?? JSONObject()
      let inner = path.count == 1 ? JSONValue.null : container(object[name])
      object[name] = setting(
        integer, at: path.dropFirst(), types: types.dropFirst(), in: inner, catalog: catalog, full: full)
      return .object(object)
    case .element:
      var elements = value.arrayValue ?? []
      if elements.isEmpty { elements = [.null] }
      let inner = path.count == 1 ? JSONValue.null : container(elements[0])
      elements[0] = setting(
        integer, at: path.dropFirst(), types: types.dropFirst(), in: inner, catalog: catalog, full: full)
      return .array(elements)
    }
  }

  static func frame(_ site: Site, _ integer: JSONValue, catalog: ProtocolCatalog, full: Bool) -> JSONObject {
    var frame = JSONObject.frame(site.type)
    if let spec = catalog.messages.first(where: { $0.type == site.type && $0.direction == site.direction }) {
      for (key, value) in object(spec.fields, catalog: catalog, full: full, depth: 0).members.map({ ($0.key, $0.value) }
      ) {
        frame[key] = value
      }
    }
    return mutate(frame, site, integer, catalog: catalog, full: full)
  }

  static func mutate(_ frame: JSONObject, _ site: Site, _ integer: JSONValue, catalog: ProtocolCatalog, full: Bool)
    -> JSONObject
  {
    setting(integer, at: site.path[...], types: site.types[...], in: .object(frame), catalog: catalog, full: full)
      .objectValue!
  }

  // MARK: conversations

  /// A client engine and a server engine connected by a pretend socket; every frame is written as
  /// JSON text (kept as a capture line) and read again by the engine it is addressed to.
  struct Conversation {
    var client: ClientEngine
    var server: ServerEngine
    let family: String?
    var now: Int64 = 1_768_150_000_000
    /// The client's socket: the last transport it asked for.
    var socket = TransportID(0)
    var lines: [(direction: MessageDirection, text: String)] = []
    var toClient: [JSONObject] = []
    var toServer: [JSONObject] = []
    /// A handshake frame of this type and direction is replaced by `mutate` of it.
    var substitute: (type: String, direction: MessageDirection, mutate: (JSONObject) -> JSONObject)?
    /// The index in `lines` of the frame under test.
    var tested: Int?
    var problems: [String] = []

    init(version: String) {
      let parsed = ProtocolVersion(rawValue: version)!
      client = ClientEngine(
        ClientConfiguration(
          apiKey: IntegerExtremeSweepTests.key, minimumVersion: parsed, maximumVersion: parsed,
          capabilities: IntegerExtremeSweepTests.capabilities, allowAuthV1: true))
      server = ServerEngine(
        ServerConfiguration(
          offer: ServerOffer(
            protocolVersions: [version], authVersions: [1], capabilities: IntegerExtremeSweepTests.capabilities),
          apiKey: IntegerExtremeSweepTests.key))
      family = ["0.4.0": "seq", "0.5.0": "offset"][version]
    }

    mutating func travel(_ frame: JSONObject, _ direction: MessageDirection) -> JSONObject? {
      var frame = frame
      if let s = substitute, tested == nil, s.direction == direction, frame["type"]?.stringValue == s.type {
        frame = s.mutate(frame)
        tested = lines.count
      }
      let text = JSONValue.object(frame).jsonText
      lines.append((direction, text))
      return try? JSONReader().parse(Array(text.utf8)).objectValue
    }

    mutating func complain(_ text: String) { problems.append("\(text) (after \(lines.last?.text ?? "nothing"))") }

    func negative(_ cursor: SubscriptionCursor?) -> Bool {
      switch cursor {
      case .lastSeq(let n)?: n < 0
      case .offset(let n, _)?: n < 0
      default: false
      }
    }

    mutating func checkTimer(_ at: Int64) {
      if at < now || at - now > IntegerExtremeSweepTests.timerBound { complain("timer at now + \(at &- now) ms") }
    }

    mutating func clientDoes(_ event: ClientEvent) throws {
      for action in try client.handle(event, now: now) {
        switch action {
        case .openTransport(let id):
          socket = id
          try serverDoes(.transportOpened(challenge: nil, connectionId: "c"))
          try clientDoes(.transportOpened(id, clientNonce: String(repeating: "5a", count: 16)))
        case .send(let message):
          let frame = (try? JSONReader().parse(message.bytes))?.objectValue ?? JSONObject()
          for key in ["last_seq", "from_offset"] where (frame[key]?.int64Value ?? 0) < 0 {
            complain("the client sent \(key) \(frame[key]!.jsonText)")
          }
          if let back = travel(frame, .clientToServer) { toServer.append(back) }
        case .closeTransport: _ = try server.handle(.transportClosed, now: now)
        case .armTimer(_, let at): checkTimer(at)
        case .deliver(.reconnectScheduled(_, let at)): checkTimer(at)
        case .deliver(.sessionUpdate(let update)): check(update)
        case .deliver, .cancelTimer: break
        }
      }
      for index in client.subscriptions.indices where negative(client.subscriptions[index].cursor) {
        complain("a negative cursor \(String(describing: client.subscriptions[index].cursor))")
      }
    }

    mutating func check(_ update: SessionUpdate) {
      if case .from(let position)? = update.purge, position < 0 { complain("a purge from \(position)") }
      if negative(update.cursor) { complain("a negative cursor in the update: \(String(describing: update.cursor))") }
      guard let family else { return }
      for index in update.insertIndices + update.replaceIndices {
        let message = (try? JSONReader().parse(update.messages.encodedMessages[index]))?.objectValue
        if let position = message?[family]?.int64Value, position < 0 {
          complain("a message delivered at \(family) \(position)")
        }
      }
    }

    mutating func serverDoes(_ event: ServerEvent) throws {
      for action in try server.handle(event, now: now) {
        switch action {
        case .send(let message):
          let frame = (try? JSONReader().parse(message.bytes))?.objectValue ?? JSONObject()
          if let back = travel(frame, .serverToClient) { toClient.append(back) }
        case .closeTransport(let reason): _ = try client.handle(.transportClosed(socket, detail: reason.code), now: now)
        case .armTimer(_, let at): checkTimer(at)
        case .deliver(.subscribe(_, let cursor)):
          if negative(cursor) { complain("the server application was given cursor \(String(describing: cursor))") }
        case .deliver(.authenticated(_, _, let limit)):
          if !(1...50).contains(limit) { complain("recent_sessions_limit \(limit) handed to the application") }
        case .deliver, .cancelTimer: break
        }
      }
    }

    mutating func pump() throws {
      while !toClient.isEmpty || !toServer.isEmpty {
        if !toClient.isEmpty { try clientDoes(.frameReceived(toClient.removeFirst())) }
        if !toServer.isEmpty { try serverDoes(.received(.text(JSONValue.object(toServer.removeFirst()).jsonText))) }
      }
    }

    /// Handshake, then a `subscribe` with a cursor; then `frame` (unless a handshake frame was the
    /// one under test), sent to the engine it is addressed to.
    mutating func run(version: String, inject frame: () -> JSONObject, direction: MessageDirection) throws {
      let cursor: SubscriptionCursor =
        switch family {
        case "seq": .lastSeq(40)
        case "offset": .offset(40, signature: nil)
        default: .lastMessageId("m-40")
        }
      try clientDoes(.subscribe(sessionId: IntegerExtremeSweepTests.session, cursor: cursor))
      try clientDoes(.start)
      try pump()
      guard tested == nil else { return }
      guard client.state == .ready else { return complain("the handshake did not finish: \(client.state)") }
      now += 1
      guard let back = travel(frame(), direction) else { return complain("unreadable frame") }
      tested = lines.count - 1
      if direction == .serverToClient {
        try clientDoes(.frameReceived(back))
      } else {
        try serverDoes(.received(.text(JSONValue.object(back).jsonText)))
      }
      try pump()
    }
  }

  // MARK: the sweep

  @Test(arguments: ProtocolCatalog.all.map(\.version))
  func everyIntegerAtEveryExtremeInContext(version: String) throws {
    let catalog = try #require(ProtocolCatalog.version(version))
    let sites = Self.sites(catalog)
    // The catalog's integers are there to be swept (a walk that found nothing would pass vacuously).
    #expect(sites.contains { $0.type == "hello" && $0.pointer == "/auth_version" })
    if version == "0.4.0" {
      #expect(sites.contains { $0.type == "session_history" && $0.pointer == "/gap/min_available_seq" })
    }
    if version == "0.5.0" {
      #expect(sites.contains { $0.type == "session_history" && $0.pointer == "/messages/0/offset" })
    }
    var capture: [String] = []
    /// The capture line (1-based) of each frame under test that must be an `invalid_value` finding.
    var mustFind: [(line: Int, site: Site, value: Int64)] = []
    var problems: [String] = []
    for site in sites {
      for full in [false, true] {
        for value in Self.extremes {
          let integer = try JSONReader().parse(Array(String(value).utf8))
          var conversation = Conversation(version: version)
          if ["hello", "connected", "connect"].contains(site.type) {
            conversation.substitute = (
              site.type, site.direction, { Self.mutate($0, site, integer, catalog: catalog, full: full) }
            )
          }
          try conversation.run(
            version: version, inject: { Self.frame(site, integer, catalog: catalog, full: full) },
            direction: site.direction)
          problems += conversation.problems.map { "\(version) \(site) = \(value)\(full ? " (full)" : ""): \($0)" }
          guard let tested = conversation.tested else {
            problems.append("\(version) \(site) = \(value): the frame under test never travelled")
            continue
          }
          if let minimum = site.minimum, value < minimum {
            mustFind.append((capture.count + tested + 1, site, value))
          }
          for line in conversation.lines {
            let record: JSONValue = ["direction": .string(line.direction.rawValue), "data": .string(line.text)]
            capture.append(record.jsonText)
          }
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.count) trusted values:\n\(problems.prefix(40).joined(separator: "\n"))")
    #expect(!mustFind.isEmpty || sites.allSatisfy { $0.minimum == nil })

    // One `vcproto validate` run over every conversation of the version (each starts with `hello`).
    let url = temporaryFile(capture.joined(separator: "\n") + "\n", name: "extremes-\(version).jsonl")
    let r = runCommand(["validate", "--format", "json", "--max-findings", "unlimited", url.path])
    #expect(r.status == 0 || r.status == 1, "\(r.err)")
    var found: Set<String> = []
    for line in r.out.split(separator: "\n") {
      guard let object = try? JSONReader().parse(Array(line.utf8)).objectValue, object["code"] == "invalid_value",
        let number = object["line"]?.int64Value, let pointer = object["pointer"]?.stringValue
      else { continue }
      found.insert("\(number) \(pointer)")
    }
    let missing = mustFind.filter { !found.contains("\($0.line) \($0.site.pointer)") }
    #expect(
      missing.isEmpty,
      "not refused as a finding: \(missing.prefix(20).map { "line \($0.line) \($0.site) = \($0.value)" })")
  }
}
