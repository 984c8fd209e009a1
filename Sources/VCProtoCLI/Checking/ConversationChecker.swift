import VCProto

/// Checks the order of a conversation, frame by frame, as a pure state machine: feed it every frame
/// in capture order with ``receive(_:)`` and it returns the findings that frame causes.
///
/// It stays inactive (returns nothing) until the capture shows the handshake (`hello` or `connect`);
/// a capture without one is only checked frame by frame. Once active it reports:
/// - `before_authentication`: a client frame other than `ping`/`connect` before authentication
///   succeeded. Success is a `connected`, or (0.2.0 sends none) the first server frame after
///   `connect` that is not `auth_error`, `error`, `pong` or `hello`. Frames the client sends after
///   `connect` but before the verdict are not flagged: the server handles them after the `connect`.
/// - `extension_not_negotiated`: an extension message or member (``MessageSpec/capability``,
///   ``FieldSpec/capability``) or a compressed frame whose capability the handshake did not
///   negotiate. Negotiated = `connected.capabilities` when sent, else the capabilities both `hello`
///   and `connect` list; a 0.2.0 handshake without them negotiates nothing.
/// - `unknown_message_id` (a warning): `message_ack` for an id no server frame in the capture carried
///   as `message_id` (among the last ``rememberedMessageIDs`` distinct ids; an ack may follow a
///   reconnect).
/// - `server_frame_before_authentication`: the server sent anything but the frames
///   ``ServerTransitions/framesBeforeAuthentication`` allows to a client that had not sent `connect`
///   (or whose `connect` was refused): session data to an unauthenticated client.
/// - `continuation_mismatch` (a warning): after a `session_history` with `end_of_file: false`, the
///   next `subscribe` for that session with a `from_offset` did not start at its `next_offset`.
/// - `heartbeat_gap`: with `heartbeat` negotiated, server silence longer than ``heartbeatTimeout``.
///
/// Real-system behaviour that looks odd is not a finding (e.g. `command_output` before
/// `command_started`).
public struct ConversationChecker: Sendable {
  /// One frame as the checker sees it.
  public struct Event: Sendable {
    /// Who sent it.
    public var direction: MessageDirection
    /// The parsed message.
    public var message: JSONObject
    /// The envelope form, when it arrived compressed.
    public var envelope: EnvelopeForm?
    /// When it travelled, in seconds, if the capture says.
    public var time: Double?

    /// Creates an event.
    public init(direction: MessageDirection, message: JSONObject, envelope: EnvelopeForm? = nil, time: Double? = nil) {
      self.direction = direction
      self.message = message
      self.envelope = envelope
      self.time = time
    }

    var type: String { message["type"]?.stringValue ?? "" }
  }

  /// Where the handshake stands.
  public enum Phase: Sendable, Hashable {
    /// No `connect` yet (or the last one failed).
    case unauthenticated
    /// `connect` sent, no verdict yet.
    case connectSent
    /// Authentication succeeded.
    case authenticated
  }

  /// The catalog that says which types need authentication and which are extensions.
  public var catalog: ProtocolCatalog
  /// How long the server may stay silent with `heartbeat` negotiated, in seconds.
  public var heartbeatTimeout: Double
  /// Whether the capture showed the handshake (only then are conversation checks made).
  public private(set) var isActive = false
  /// The handshake state.
  public private(set) var phase = Phase.unauthenticated
  /// The capabilities in force.
  public private(set) var negotiatedCapabilities: Set<String> = []

  private var offered: [String]?
  private var requested: [String]?
  private var negotiationConfirmed = false
  private var lastServerTime: Double?
  private var sentMessageIDs = MessageIDMemory(capacity: ConversationChecker.rememberedMessageIDs)
  /// Sessions whose last `session_history` asked for a continuation: the `next_offset` to resume at.
  private var continuations: [String: Int] = [:]
  /// At most this many pending continuations are remembered.
  static let rememberedContinuations = 4_096
  /// At most this many server `message_id`s are remembered, as fixed-size hashes, so memory stays
  /// bounded whatever the ids' number or length (see ``MessageIDMemory``).
  static let rememberedMessageIDs = 65_536
  /// The capability names that matter to the checks: any capability a catalog names, plus the
  /// compression ones. Others are dropped when read, so a peer's long list costs no memory.
  static let knownCapabilities: Set<String> = {
    var names = Set(Capability.all)
    for catalog in ProtocolCatalog.all {
      for message in catalog.messages {
        if let c = message.capability { names.insert(c) }
        for field in message.fields { if let c = field.capability { names.insert(c) } }
      }
    }
    return names
  }()

  /// Creates a checker; ``heartbeatTimeout`` defaults to 90 s (two missed 45 s heartbeats).
  public init(catalog: ProtocolCatalog = .v0_2_0, heartbeatTimeout: Double = 90) {
    self.catalog = catalog
    self.heartbeatTimeout = heartbeatTimeout
  }

  /// Forgets everything (a new connection begins).
  public mutating func reset() {
    self = ConversationChecker(catalog: catalog, heartbeatTimeout: heartbeatTimeout)
  }

  /// Whether a frame of this type and direction starts (or restarts) the conversation checks: the
  /// server's `hello` or the client's `connect`. Until one is seen, frames matter only on their own.
  static func startsConversation(_ type: String, _ direction: MessageDirection) -> Bool {
    (direction == .serverToClient && type == "hello") || (direction == .clientToServer && type == "connect")
  }

  /// Takes the next frame; returns the conversation findings it causes.
  public mutating func receive(_ event: Event) -> [Finding] {
    let type = event.type
    if event.direction == .serverToClient, type == "hello" {
      reset()
      isActive = true
      offered = strings(event.message["capabilities"])
      return []
    }
    if !isActive {
      guard Self.startsConversation(type, event.direction) else { return [] }
      isActive = true
    }
    var findings: [Finding] = []
    switch event.direction {
    case .clientToServer:
      clientFrame(event, type, into: &findings)
    case .serverToClient:
      serverFrame(event, type, into: &findings)
    }
    checkExtensions(event, type, into: &findings)
    return findings
  }

  private mutating func clientFrame(_ event: Event, _ type: String, into findings: inout [Finding]) {
    if type == "connect" {
      phase = .connectSent
      requested = strings(event.message["capabilities"])
      if !negotiationConfirmed {
        negotiatedCapabilities = Set(offered ?? []).intersection(requested ?? [])
      }
      return
    }
    let needsAuthentication = catalog.message(type)?.requiresAuthentication ?? true
    if needsAuthentication, phase == .unauthenticated {
      findings.append(
        Finding(
          .error, .beforeAuthentication, pointer: "/type", messageType: type,
          message: "\"\(type)\" sent before authentication succeeded (only ping and connect are allowed)"))
    }
    if type == "message_ack", let id = event.message["message_id"]?.stringValue, !sentMessageIDs.contains(id) {
      findings.append(
        Finding(
          .warning, .unknownMessageID, pointer: "/message_id", messageType: type,
          message: "message_ack for a message_id the server never sent in this capture (it may follow a reconnect)"))
    }
    if type == "subscribe", let session = event.message["session_id"]?.stringValue,
      let expected = continuations.removeValue(forKey: session), let from = event.message["from_offset"]?.intValue,
      from != expected
    {
      findings.append(
        Finding(
          .warning, .continuationMismatch, pointer: "/from_offset", messageType: type,
          message: "the continuation resumes at \(from), but the last session_history ended at next_offset \(expected)")
      )
    }
  }

  private mutating func serverFrame(_ event: Event, _ type: String, into findings: inout [Finding]) {
    if phase == .unauthenticated, !ServerTransitions.framesBeforeAuthentication.contains(type) || type == "connected" {
      findings.append(
        Finding(
          .error, .serverFrameBeforeAuthentication, pointer: "/type", messageType: type,
          message: "\"\(type)\" sent to a client that has not authenticated"))
    }
    if type == "session_history", let session = event.message["session_id"]?.stringValue,
      let next = event.message["next_offset"]?.intValue
    {
      if event.message["end_of_file"]?.boolValue == false {
        if continuations[session] != nil || continuations.count < Self.rememberedContinuations {
          continuations[session] = next
        }
      } else {
        continuations[session] = nil
      }
    }
    if phase == .connectSent {
      switch type {
      case "auth_error":
        phase = .unauthenticated
      case "pong", "error":
        break
      default:
        phase = .authenticated
        lastServerTime = event.time
      }
    }
    if type == "connected" {
      if let caps = strings(event.message["capabilities"]) {
        negotiatedCapabilities = Set(caps)
        negotiationConfirmed = true
      }
    }
    if let id = event.message["message_id"]?.stringValue { remember(id) }
    if phase == .authenticated, negotiatedCapabilities.contains("heartbeat"), let now = event.time {
      if let last = lastServerTime, now - last > heartbeatTimeout {
        findings.append(
          Finding(
            .error, .heartbeatGap, pointer: "", messageType: type,
            message: "server was silent for \(seconds(now - last)) s; with heartbeat negotiated the limit is "
              + "\(seconds(heartbeatTimeout)) s"))
      }
      lastServerTime = now
    }
  }

  private func checkExtensions(_ event: Event, _ type: String, into findings: inout [Finding]) {
    if let form = event.envelope {
      let capability = form == .binary ? "compression_binary" : "compression_text"
      if !negotiatedCapabilities.contains(capability) {
        findings.append(
          Finding(
            .error, .extensionNotNegotiated, pointer: "", messageType: type,
            message:
              "compressed frame (\(form == .binary ? "binary" : "text") envelope) but \(capability) was not negotiated")
        )
      }
    }
    guard let spec = catalog.message(type) else { return }
    if let capability = spec.capability, !negotiatedCapabilities.contains(capability) {
      findings.append(
        Finding(
          .error, .extensionNotNegotiated, pointer: "/type", messageType: type,
          message: "extension message \"\(type)\" needs capability \(capability), which was not negotiated"))
    }
    for field in spec.fields {
      guard let capability = field.capability, !negotiatedCapabilities.contains(capability),
        let value = event.message[field.name], !value.isNull
      else { continue }
      findings.append(
        Finding(
          .error, .extensionNotNegotiated, pointer: JSONPointer.appending("", key: field.name), messageType: type,
          message: "extension member \"\(field.name)\" needs capability \(capability), which was not negotiated"))
    }
  }

  private mutating func remember(_ id: String) {
    sentMessageIDs.insert(id)
  }

  /// The capability names of a list that matter to the checks (``knownCapabilities``), or `nil` when
  /// the value is not an array.
  private func strings(_ value: JSONValue?) -> [String]? {
    guard let items = value?.arrayValue else { return nil }
    return items.compactMap { $0.stringValue.flatMap { Self.knownCapabilities.contains($0) ? $0 : nil } }
  }

  private func seconds(_ value: Double) -> String {
    let tenths = (value * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
  }
}
