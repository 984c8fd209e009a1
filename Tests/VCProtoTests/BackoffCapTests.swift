import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The backoff cap holds after jitter (STANDARDS.md#reconnect): the real clients jitter the
/// capped delay, so a 30 s cap gave 37 s; the engine's delays never pass ``ClientTiming/backoffCapMs``.
@Suite struct BackoffCapTests {
  /// The reconnect delays of `attempts` failed connections in a row, each refused as soon as it opens.
  static func delays(_ timing: ClientTiming, seed: UInt64, attempts: Int) throws -> [Int64] {
    var engine = ClientEngine(ClientConfiguration(apiKey: "k", timing: timing, randomSeed: seed))
    var now: Int64 = 0
    _ = try engine.handle(.start, now: now)
    var delays: [Int64] = []
    for _ in 0..<attempts {
      let actions = try engine.handle(.transportClosed(engine.currentTransport!, detail: "refused"), now: now)
      guard
        let at = actions.lazy.compactMap({ action -> Int64? in
          if case .deliver(.reconnectScheduled(_, let at)) = action { return at }
          return nil
        }).first
      else { break }
      delays.append(at - now)
      now = at
      _ = try engine.handle(.timerFired(.reconnect), now: now)
      #expect(engine.state == .connecting)
    }
    return delays
  }

  @Test func defaultCapHoldsOverManySeeds() throws {
    var atCap = 0
    var outside: [UInt64] = []
    for seed in UInt64(0)..<1_000 {
      let delays = try Self.delays(ClientTiming(), seed: seed, attempts: 9)
      if delays.count != 9 || delays.contains(where: { $0 < 1_000 || $0 > 30_000 }) { outside.append(seed) }
      atCap += delays.filter { $0 == 30_000 }.count
    }
    #expect(outside.isEmpty, "seeds with a delay outside 1-30 s: \(outside.prefix(10))")
    // Half of the capped attempts (5 to 8) would have jittered above the cap.
    #expect(atCap > 1_000)
  }

  @Test func seed42WouldHaveWaited35Seconds() throws {
    // The vector client.reconnect.jitter_capped: attempt 6 jitters 30 s up to 35,523 ms, then the cap.
    let delays = try Self.delays(ClientTiming(), seed: 42, attempts: 6)
    #expect(delays == [1_120, 1_659, 3_557, 7_376, 12_304, 30_000])
  }

  @Test func fullJitterAndOtherCapsHold() throws {
    var timing = ClientTiming()
    timing.jitter = 1
    timing.backoffBaseMs = 700
    timing.backoffCapMs = 5_000
    timing.backoffFloorMs = 0
    var outside: [UInt64] = []
    for seed in UInt64(0)..<500 where try Self.delays(timing, seed: seed, attempts: 12).contains(where: { $0 > 5_000 })
    {
      outside.append(seed)
    }
    #expect(outside.isEmpty, "seeds with a delay over the 5 s cap: \(outside.prefix(10))")
  }

  @Test func capWinsOverALargerFloor() throws {
    var timing = ClientTiming()
    timing.backoffCapMs = 2_000
    timing.backoffFloorMs = 5_000
    #expect(try Self.delays(timing, seed: 3, attempts: 4) == [2_000, 2_000, 2_000, 2_000])
  }
}
