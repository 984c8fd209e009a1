import VCProtoCore
import VCProtoJSON

/// Watches a conversation from the wire (frames of both peers, in the order they travelled, with
/// optional times) and reports every frame the engines' rules forbid as a ``Finding``. It sends
/// nothing and decides nothing: it is `vcproto validate`'s conversation check, and any host can run
/// it on a proxy, a test harness or a log.
///
/// ```swift
/// var observer = ConversationObserver(fallbackVersion: .v0_2_0)
/// for frame in capture {
///   let findings = observer.observe(.init(direction: frame.direction, message: frame.object, time: frame.ms))
///   // frame by frame, check the frame itself against observer.protocolVersion with a Validator
/// }
/// ```
///
/// The rules are the engines' (STANDARDS.md#state-machine), not restated: the frames each peer may send
/// before authentication (`ClientTransitions.framesBeforeAuthentication`,
/// `ServerTransitions.framesBeforeAuthentication`), the handshake's verdict as ``ClientEngine``
/// reads it, the capabilities as ``Negotiator`` grants them (or `connected` confirms them), each
/// message's and member's capability from the catalog, the heartbeat timeout of ``ClientTiming``,
/// the version each connection speaks as the backend decides it (``Negotiator/decideVersion(_:announced:)``),
/// and, for subscriptions and requests, a ``ClientEngine`` driven by the observed frames: where a
/// continuation must resume and which requests are waiting for an answer are that engine's state.
///
/// It stays inactive until it sees the handshake (`hello` or `connect`): before that, frames matter
/// only on their own. A server `hello` starts a new connection, and so does
/// ``startConnection()`` (a capture's next connection). The codes: ``FindingCode/conversationCodes``.
/// Legal quirks of the real system are not findings (e.g. `command_output` before
/// `command_started`, `session_updated` fan-out to every 0.2.0 client; 0.4.0 session data is not
/// checked for a subscription, the real 0.4.0 live update being a broadcast).
///
/// Memory is bounded whatever the conversation holds: capability names outside
/// ``knownCapabilities`` are dropped as they are read, server `message_id`s and subscribed sessions
/// are kept as 64-bit keyed hashes (at most ``rememberedMessageIDs`` and ``trackedSessions``), and
/// at most ``trackedSessions`` subscriptions and waiting requests are followed, with ids up to
/// ``maxTrackedIDBytes``; past a bound a check that could no longer be certain is skipped.
public struct ConversationObserver: Sendable {
  /// One frame as it travelled.
  public struct Frame: Sendable {
    /// Who sent it.
    public var direction: MessageDirection
    /// The parsed message (inside its envelope, when it arrived compressed).
    public var message: JSONObject
    /// The envelope form, when it arrived compressed.
    public var envelope: EnvelopeForm?
    /// When it travelled, in milliseconds on any clock (the gaps matter), if known.
    public var time: Int64?

    /// Creates a frame.
    public init(direction: MessageDirection, message: JSONObject, envelope: EnvelopeForm? = nil, time: Int64? = nil) {
      self.direction = direction
      self.message = message
      self.envelope = envelope
      self.time = time
    }

    var type: String { message["type"]?.stringValue ?? "" }
  }

  /// The client's timers; ``ClientTiming/heartbeatTimeoutMs`` is how long the server may stay
  /// silent with `heartbeat` negotiated.
  public var timing: ClientTiming
  /// Whether the handshake is in view (only then are conversation checks made).
  public internal(set) var isActive = false
  /// Where the client stands, as the frames show it: ``ClientState/idle`` before the handshake,
  /// ``ClientState/awaitingHello`` after `hello`, ``ClientState/awaitingConnected`` once `connect`
  /// was sent (the server handles what follows after it), ``ClientState/ready`` after the verdict,
  /// ``ClientState/reauthRequired`` after `auth_error` and ``ClientState/upgradeRequired`` after
  /// the too-old refusal.
  public internal(set) var clientState: ClientState = .idle
  /// The capabilities in force on this connection.
  public internal(set) var negotiatedCapabilities: Set<String> = []
  /// The catalog of ``protocolVersion``.
  public internal(set) var catalog: ProtocolCatalog
  /// The version the next frame is checked against: the fallback until the handshake says more.
  public var protocolVersion: ProtocolVersion { version.version }

  var version: NegotiationTracker
  /// What the connection's `hello` offered, when it was seen.
  var offer: ServerOffer?
  /// What the connection's `connect` announced, when it was seen.
  var announcement: ClientAnnouncement?
  /// `connected` listed the capabilities: they are in force, whatever a later `connect` asks.
  var confirmed = false
  /// The `connect` had a list longer than the handshake-list cap: negotiation refuses it.
  var announcementTooLong = false
  var lastServerFrameAt: Int64?
  var serverMessageIDs = MessageIDMemory(capacity: ConversationObserver.rememberedMessageIDs)
  /// The client engine that follows subscriptions and requests (from `connect` until a refusal).
  var sessions: ClientEngine?
  var subscribedSessions = MessageIDMemory(capacity: ConversationObserver.trackedSessions)
  /// For each session fetching a continuation, where its next `subscribe` must resume (by the id's
  /// exact scalars, ``ExactString``).
  var continuations: [ExactString: SubscriptionCursor] = [:]
  /// Whether every request of this connection is followed (else answers are not checked).
  var answersTracked = true
  var requestsSent = 0
  /// A `connected` granted `authenticated_frames`: every later frame must be an authenticated one
  /// (``observe(_:)`` checks the frame inside it). `vcproto validate` then checks each wrapper's inner
  /// frame on its own instead of the wrapper.
  package internal(set) var framesAuthenticated = false
  /// The `seq` the next authenticated frame of each direction must carry (client's, server's).
  var nextSequence: (clientToServer: UInt64, serverToClient: UInt64) = (0, 0)
  /// Whether a server `hello` starts a new connection: `true` (the default) where the frames do not
  /// say which connection they belong to; `false` where they do (a capture naming its connections, a
  /// HAR entry, a live connection of `vcproto-tap`). Then a plain `hello` on a connection whose
  /// authenticated frames are in force is a frame injected into it (``FindingCode/unauthenticatedFrame``).
  package var helloStartsConnection = true

  /// At most this many server `message_id`s are remembered per connection, as fixed-size hashes.
  public static let rememberedMessageIDs = 65_536
  /// At most this many subscriptions and waiting requests are followed per connection.
  public static let trackedSessions = 1_024
  /// Session ids and request correlations longer than this (UTF-8 bytes) are not followed.
  public static let maxTrackedIDBytes = 256
  /// The capability names that matter to the checks: any capability a catalog names, plus the
  /// compression ones. Others are dropped when read, so a peer's long list costs no memory.
  public static let knownCapabilities: Set<String> = {
    var names = Set(Capability.all)
    for catalog in ProtocolCatalog.all {
      for message in catalog.messages {
        if let c = message.capability { names.insert(c) }
        for field in message.fields { if let c = field.capability { names.insert(c) } }
      }
    }
    return names
  }()

  /// Creates an observer. `fallbackVersion` is the version frames are checked against when the
  /// conversation has no handshake; `explicitVersion` says the caller chose it (it is then also the
  /// floor assumed for a negotiating server: STANDARDS.md#findings).
  public init(
    fallbackVersion: ProtocolVersion, explicitVersion: Bool = false,
    timing: ClientTiming = ClientTiming()
  ) {
    self.timing = timing
    version = NegotiationTracker(fallback: fallbackVersion, explicit: explicitVersion)
    catalog = ProtocolCatalog.catalog(fallbackVersion)
  }

  /// A new connection begins (a capture's next connection): everything about the last is forgotten.
  public mutating func startConnection() {
    self = ConversationObserver(fallbackVersion: version.fallback, explicitVersion: version.explicit, timing: timing)
  }

  /// Whether a frame of this type and direction starts (or restarts) the conversation checks: the
  /// server's `hello` or the client's `connect`. Until one is seen, frames matter only on their own.
  public static func startsConversation(type: String, direction: MessageDirection) -> Bool {
    (direction == .serverToClient && type == "hello") || (direction == .clientToServer && type == "connect")
  }

  /// Takes the next frame; returns the findings it causes (handshake first, then conversation).
  public mutating func observe(_ frame: Frame) -> [Finding] {
    // Times come from the traffic (any clock, any value); the engine that follows subscriptions adds
    // its intervals to them, so they are held where no sum can overflow.
    var frame = frame
    frame.time = frame.time.map { min(max($0, -Self.timeBound), Self.timeBound) }
    if frame.direction == .serverToClient, frame.type == "hello", helloStartsConnection || !framesAuthenticated {
      beginConnection(hello: frame.message)
    }
    var sealing: [Finding] = []
    // With authenticated frames, the rest is checked on the frame inside (when it can be read).
    if framesAuthenticated, !openAuthenticated(&frame, into: &sealing) { return sealing }
    let type = frame.type
    var findings = sealing + version.receive(frame.direction, frame.message)
    catalog = ProtocolCatalog.catalog(version.version)
    if !isActive {
      guard Self.startsConversation(type: type, direction: frame.direction) else { return findings }
      isActive = true
      clientState = .awaitingHello
    }
    if type == "hello", frame.direction == .serverToClient { return findings }
    switch frame.direction {
    case .clientToServer: clientFrame(frame, type, into: &findings)
    case .serverToClient: serverFrame(frame, type, into: &findings)
    }
    checkExtensions(frame, type, into: &findings)
    return findings
  }

  /// The server accepted (or is handling) the client's `connect`.
  var isAccepted: Bool { clientState == .awaitingConnected || clientState == .ready }

  private mutating func clientFrame(_ frame: Frame, _ type: String, into findings: inout [Finding]) {
    if type == "connect" {
      connect(frame.message, now: frame.time ?? 0)
      return
    }
    if !isAccepted, !ClientTransitions.framesBeforeAuthentication.contains(type) {
      findings.append(
        Finding(
          .error, .beforeAuthentication, pointer: "/type", messageType: type,
          message: "\(Self.shown(type)) sent before authentication succeeded (only ping and connect are allowed)"))
    }
    if type == "message_ack", let id = frame.message["message_id"]?.stringValue, !serverMessageIDs.contains(id) {
      findings.append(
        Finding(
          .warning, .unknownMessageID, pointer: "/message_id", messageType: type,
          message: "message_ack for a message_id the server never sent on this connection (it may follow a reconnect)"))
    }
    followClientFrame(frame, type, into: &findings)
  }

  private mutating func serverFrame(_ frame: Frame, _ type: String, into findings: inout [Finding]) {
    if !isAccepted, type == "connected" || !ServerTransitions.framesBeforeAuthentication.contains(type) {
      findings.append(
        Finding(
          .error, .serverFrameBeforeAuthentication, pointer: "/type", messageType: type,
          message: "\(Self.shown(type)) sent to a client that has not authenticated"))
    }
    if type == "connected" {
      connected(frame.message, into: &findings)
      framesAuthenticated = negotiatedCapabilities.contains(Capability.authenticatedFrames)
    }
    if clientState == .awaitingConnected { verdict(frame, type) }
    if let id = frame.message["message_id"]?.stringValue { serverMessageIDs.insert(id) }
    if clientState == .ready, let now = frame.time {
      if negotiatedCapabilities.contains(Capability.heartbeat), let last = lastServerFrameAt {
        let (gap, overflow) = now.subtractingReportingOverflow(last)
        if overflow ? now > last : gap > timing.heartbeatTimeoutMs {
          findings.append(
            Finding(
              .error, .heartbeatGap, pointer: "", messageType: type,
              message: "server was silent for \(Self.seconds(Double(now) - Double(last))) s; with heartbeat negotiated "
                + "the limit is \(Self.seconds(Double(timing.heartbeatTimeoutMs))) s"))
        }
      }
      lastServerFrameAt = now
    }
    followServerFrame(frame, type, into: &findings)
  }

  private func checkExtensions(_ frame: Frame, _ type: String, into findings: inout [Finding]) {
    if let form = frame.envelope {
      let capability = form == .binary ? Capability.compressionBinary : Capability.compressionText
      if !negotiatedCapabilities.contains(capability) {
        findings.append(
          Finding(
            .error, .extensionNotNegotiated, pointer: "", messageType: type,
            message:
              "compressed frame (\(form == .binary ? "binary" : "text") envelope) but \(capability) was not negotiated"
          ))
      }
    }
    guard let spec = catalog.message(type) else { return }
    for use in spec.unnegotiatedCapabilities(in: frame.message, negotiated: negotiatedCapabilities) {
      findings.append(
        Finding(
          .error, .extensionNotNegotiated, pointer: use.pointer, messageType: type,
          message: "extension \(use.what) needs capability \(use.name), which was not negotiated"))
    }
  }

  /// The largest time magnitude handed on (2^62 ms, about 146 million years): far from the ends of
  /// `Int64`, so `now` plus any engine interval (hours at most) stays representable.
  static let timeBound: Int64 = 1 << 62

  /// Text from the capture (a type, a version, a capability) as a finding's message quotes it, in
  /// quotes: secrets masked first (``Redaction/redactedText(_:)``, which also masks key-shaped text),
  /// then at most 60 characters and `…`, the rule of every validator message (STANDARDS.md#errors),
  /// so a megabyte-long value costs a finding no more than a short one.
  static func shown(_ text: String) -> String {
    "\"" + Redaction.truncated(Redaction.redactedText(text)) + "\""
  }

  /// Milliseconds as seconds, with one decimal when it is not whole.
  static func seconds(_ milliseconds: Double) -> String {
    let tenths = (milliseconds / 100).rounded() / 10
    return tenths == tenths.rounded() && abs(tenths) < 1e15 ? String(Int64(tenths)) : String(tenths)
  }
}
