import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Every number in ``ClientTiming`` and ``ServerConfiguration`` at the ends of its type (and just
/// inside them, and around zero), through a conversation that arms every timer, fires it at its
/// deadline and reconnects: no trap (a trap ends the test process), every deadline at or after the
/// time it was armed, and the engine's configuration within the ranges the doc comments give.
/// `Int64.max` as a period is how a host switches a timer off; NaN or infinite jitter is a bad
/// value a host may compute. Both used to trap (`now + interval` overflowing; `Int64(_:)` of a
/// non-finite delay).
@Suite struct EngineExtremeConfigurationTests {
  static let integers: [Int64] = [.min, .min + 1, -1, 0, 1, .max - 1, .max]
  static let clocks: [Int64] = [0, 1_768_150_000_000, .max - 1_000, .min + 1_000]
  static let key = "k"

  static func object(_ text: String) throws -> JSONObject { try #require(JSONReader().parse(text).objectValue) }

  /// Drives a client engine through every timer; records an issue for a deadline before its `now`.
  struct ClientRun {
    var engine: ClientEngine
    var now: Int64
    var armed: [ConnectionTimer: Int64] = [:]
    let label: String

    mutating func step(_ event: ClientEvent) throws {
      for action in try engine.handle(event, now: now) {
        switch action {
        case .armTimer(let timer, let at):
          #expect(at >= now, "\(label): \(timer) armed at \(at), before now \(now)")
          armed[timer] = at
        case .cancelTimer(let timer): armed[timer] = nil
        case .deliver(.reconnectScheduled(_, let at)):
          #expect(at >= now, "\(label): reconnect scheduled at \(at), before now \(now)")
        default: break
        }
      }
    }

    /// Fires `timer` at its deadline, if it is armed.
    mutating func fire(_ timer: ConnectionTimer) throws {
      guard let at = armed.removeValue(forKey: timer) else { return }
      now = max(now, at)
      try step(.timerFired(timer))
    }

    mutating func handshake() throws {
      try step(.transportOpened(engine.currentTransport!, clientNonce: String(repeating: "ab", count: 16)))
      try step(
        .frameReceived(
          try object(
            #"{"type":"hello","message":"m","version":"0.5.0","auth_version":1,"instructions":"i","capabilities":["heartbeat","draining"]}"#
          )))
      try step(
        .frameReceived(
          try object(
            #"{"type":"connected","message":"m","session_id":null,"negotiated_protocol_version":"0.5.0","capabilities":["heartbeat","draining"]}"#
          )))
    }
  }

  static func runClient(_ timing: ClientTiming, label: String) throws {
    for clock in clocks {
      let configuration = ClientConfiguration(
        apiKey: key, capabilities: ["heartbeat", "draining"], allowAuthV1: true, timing: timing, randomSeed: 7)
      var run = ClientRun(engine: ClientEngine(configuration), now: clock, label: "\(label), now \(clock)")
      let t = run.engine.configuration.timing
      for duration in [
        t.pingIntervalMs, t.pongTimeoutMs, t.heartbeatTimeoutMs, t.handshakeTimeoutMs, t.continuationRetryMs,
        t.requestTimeoutMs, t.slowRequestTimeoutMs,
      ] {
        #expect(duration >= 1, "\(label): a timer duration of \(duration) ms")
      }
      #expect(t.backoffBaseMs >= 0 && t.backoffCapMs >= 0 && t.backoffFloorMs >= 0, "\(label)")
      #expect((0...1).contains(t.jitter), "\(label): jitter \(t.jitter)")
      try run.step(.start)
      try run.handshake()
      #expect(run.engine.state == .ready, "\(run.label)")
      try run.step(.send(.frame("execute_command", ["command": "ls"]), requestId: "r1"))
      try run.step(.subscribe(sessionId: "s", cursor: nil))
      // A continuation that did not advance arms its retry.
      try run.step(
        .frameReceived(
          try object(
            #"{"type":"session_history","session_id":"s","messages":[],"next_offset":0,"end_of_file":false}"#)))
      try run.fire(.continuation(sessionId: "s"))
      try run.fire(.requestDeadline)
      try run.fire(.heartbeatDeadline)
      try run.fire(.ping)
      try run.fire(.pongDeadline)
      // Down now (or still up with timers at Int64.max): drop it, then back off and retry a few times.
      try run.step(.transportClosed(run.engine.currentTransport ?? TransportID(0), detail: "gone"))
      for _ in 0..<4 {
        try run.fire(.reconnect)
        guard run.engine.state == .connecting else { break }
        try run.step(.transportOpened(run.engine.currentTransport!, clientNonce: String(repeating: "ab", count: 16)))
        try run.fire(.handshakeDeadline)
        if run.engine.state == .awaitingHello {
          try run.step(.transportClosed(run.engine.currentTransport ?? TransportID(0), detail: "gone"))
        }
      }
      // A planned restart: the wait plus jitter.
      try run.step(.resume)
      if run.engine.state == .connecting {
        try run.handshake()
        try run.step(.frameReceived(try object(#"{"type":"draining","retry_after_ms":5000}"#)))
        try run.fire(.reconnect)
      }
      try run.step(.stop(reason: "done"))
    }
  }

  @Test func clientTimingExtremesNeitherTrapNorGoBackInTime() throws {
    let fields: [(String, WritableKeyPath<ClientTiming, Int64>)] = [
      ("pingIntervalMs", \.pingIntervalMs), ("pongTimeoutMs", \.pongTimeoutMs),
      ("heartbeatTimeoutMs", \.heartbeatTimeoutMs), ("handshakeTimeoutMs", \.handshakeTimeoutMs),
      ("backoffBaseMs", \.backoffBaseMs), ("backoffCapMs", \.backoffCapMs), ("backoffFloorMs", \.backoffFloorMs),
      ("continuationRetryMs", \.continuationRetryMs), ("requestTimeoutMs", \.requestTimeoutMs),
      ("slowRequestTimeoutMs", \.slowRequestTimeoutMs),
    ]
    for (name, field) in fields {
      for value in Self.integers {
        var timing = ClientTiming()
        timing[keyPath: field] = value
        try Self.runClient(timing, label: "\(name) = \(value)")
      }
    }
    // All at once: every period switched off, the backoff as large as it goes.
    var off = ClientTiming()
    for (_, field) in fields { off[keyPath: field] = .max }
    off.jitter = 1
    try Self.runClient(off, label: "all Int64.max")
    for jitter in [Double.nan, .infinity, -.infinity, -1, 0, 1, 2, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
    {
      for cap in [Int64(30_000), .max] {
        var timing = ClientTiming()
        timing.jitter = jitter
        timing.backoffCapMs = cap
        timing.backoffBaseMs = cap
        try Self.runClient(timing, label: "jitter = \(jitter), backoff \(cap)")
      }
    }
    for attempts in [nil, Int.min, -1, 0, 1, Int.max] {
      var timing = ClientTiming()
      timing.maxReconnectAttempts = attempts
      try Self.runClient(timing, label: "maxReconnectAttempts = \(String(describing: attempts))")
    }
    for failures in [Int.min, -1, 0, 1, Int.max] {
      var timing = ClientTiming()
      timing.authFailuresBeforeReauth = failures
      try Self.runClient(timing, label: "authFailuresBeforeReauth = \(failures)")
    }
  }

  /// In range, a value is used as given: the default timing is unchanged by the clamp, and the
  /// ends of each range are kept.
  @Test func valuesInRangeAreKept() {
    #expect(ClientTiming().clamped == ClientTiming())
    var ends = ClientTiming()
    ends.pingIntervalMs = 1
    ends.requestTimeoutMs = .max
    ends.backoffFloorMs = 0
    ends.jitter = 1
    ends.maxReconnectAttempts = 0
    #expect(ends.clamped == ends)
    var below = ends
    below.pingIntervalMs = 0
    below.backoffFloorMs = -5
    below.jitter = .nan
    below.maxReconnectAttempts = -3
    let clamped = below.clamped
    #expect(clamped.pingIntervalMs == 1 && clamped.backoffFloorMs == 0 && clamped.jitter == 0)
    #expect(clamped.maxReconnectAttempts == 0)
  }

  static func runServer(_ configuration: ServerConfiguration, authV2: Bool, label: String) throws {
    for clock in clocks {
      var engine = ServerEngine(configuration)
      let c = engine.configuration
      #expect(c.heartbeatIntervalMs >= 1 && c.authTimeoutMs >= 1, "\(label)")
      #expect(c.maxSubscriptions >= 0 && c.maxSessionIdBytes >= 0 && c.replayBufferBytes >= 0, "\(label)")
      var now = clock
      var armed: [ConnectionTimer: Int64] = [:]
      func step(_ event: ServerEvent) throws {
        for action in try engine.handle(event, now: now) {
          if case .armTimer(let timer, let at) = action {
            #expect(at >= now, "\(label), now \(clock): \(timer) armed at \(at), before now \(now)")
            armed[timer] = at
          }
          if case .cancelTimer(let timer) = action { armed[timer] = nil }
        }
      }
      try step(.transportOpened(challenge: authV2 ? String(repeating: "0f", count: 32) : nil, connectionId: "c"))
      if authV2 {
        // A wrong answer: the challenge's age is compared with authTimeoutMs, then it is refused.
        try step(
          .frameReceived(
            try object(
              #"{"type":"connect","auth_version":2,"client_nonce":"\#(String(repeating: "ab", count: 16))","auth_response":"x","protocol_version":"0.5.0"}"#
            )))
        #expect(engine.state == .closed, "\(label)")
        continue
      }
      try step(
        .frameReceived(
          try object(
            #"{"type":"connect","api_key":"k","protocol_version":"0.5.0","capabilities":["heartbeat","message_ack"]}"#))
      )
      #expect(engine.state == .authenticated, "\(label)")
      if let at = armed.removeValue(forKey: .heartbeat) {
        now = max(now, at)
        try step(.timerFired(.heartbeat))
      }
      try step(.frameReceived(try object(#"{"type":"subscribe","session_id":"s","from_offset":0}"#)))
      if engine.isSubscribed("s") {
        try step(
          .sendFrame(
            try object(
              #"{"type":"session_history","session_id":"s","messages":[],"next_offset":0,"end_of_file":true,"message_id":"m1"}"#
            )))
      }
      try step(.transportClosed)
    }
  }

  /// The subscribed ids' records (``SessionIDSet``) keep 32-bit offsets: however large the host's
  /// limits, the engine holds the id length to 1 MiB and the count to what 512 MiB of records
  /// hold, and keeps limits within that as given.
  @Test func subscriptionLimitsKeepTheIdSetUnder2GiB() {
    let offer = ServerOffer(protocolVersions: ["0.5.0"])
    for (count, length) in [(Int.max, Int.max), (Int.max, 256), (1 << 40, 1 << 20), (Int.max, 0)] {
      let c = ServerEngine(
        ServerConfiguration(offer: offer, apiKey: Self.key, maxSubscriptions: count, maxSessionIdBytes: length)
      ).configuration
      #expect(c.maxSessionIdBytes <= 1 << 20, "\(count), \(length)")
      let (bytes, overflow) = c.maxSubscriptions.multipliedReportingOverflow(by: c.maxSessionIdBytes &+ 16)
      #expect(!overflow && bytes <= 1 << 29, "\(count), \(length)")
      #expect(c.maxSubscriptions > 0)
    }
    for (count, length) in [(1_024, 256), (100_000, 256), (0, 36), (500, 1 << 20)] {
      let c = ServerEngine(
        ServerConfiguration(offer: offer, apiKey: Self.key, maxSubscriptions: count, maxSessionIdBytes: length)
      ).configuration
      #expect(c.maxSubscriptions == count && c.maxSessionIdBytes == length, "kept: \(count), \(length)")
    }
  }

  @Test func serverConfigurationExtremesNeitherTrapNorGoBackInTime() throws {
    let offer = ServerOffer(protocolVersions: ["0.5.0"], capabilities: ["heartbeat", "message_ack"])
    let v2 = ServerOffer(protocolVersions: ["0.5.0"], authVersions: [2])
    let durations: [(String, WritableKeyPath<ServerConfiguration, Int64>)] = [
      ("heartbeatIntervalMs", \.heartbeatIntervalMs), ("authTimeoutMs", \.authTimeoutMs),
    ]
    let counts: [(String, WritableKeyPath<ServerConfiguration, Int>)] = [
      ("maxSubscriptions", \.maxSubscriptions), ("maxSessionIdBytes", \.maxSessionIdBytes),
      ("replayBufferBytes", \.replayBufferBytes),
    ]
    for (name, field) in durations {
      for value in Self.integers {
        for authV2 in [false, true] {
          var configuration = ServerConfiguration(offer: authV2 ? v2 : offer, apiKey: Self.key)
          configuration[keyPath: field] = value
          try Self.runServer(configuration, authV2: authV2, label: "\(name) = \(value), v2 \(authV2)")
        }
      }
    }
    for (name, field) in counts {
      for value in [Int.min, -1, 0, 1, Int.max - 1, Int.max] {
        var configuration = ServerConfiguration(offer: offer, apiKey: Self.key)
        configuration[keyPath: field] = value
        try Self.runServer(configuration, authV2: false, label: "\(name) = \(value)")
      }
    }
  }
}
