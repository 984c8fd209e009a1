import Foundation
import VCProto

/// `vcproto-bench engine-server [--protocol 0.2.0|0.5.0] [--frames N] [--repetitions R] [--smoke]`: the
/// server engine as a validation boundary against `MessageDecoder` alone, on the same bytes: the
/// client-to-server frames of the benchmark corpus of that version (pings, prompts, subscribes,
/// commands, ...), each handed to an authenticated ``ServerEngine`` as the WebSocket text message it
/// arrived as (`.received(.text(bytes))`, into one reused ``ServerActions`` buffer, each action then
/// taken from it) and, in the other contender,
/// decoded by a `MessageDecoder` of the same version and direction. The engine decodes each frame once
/// itself, on the decoder's direct path, and acts on the typed message (subscriptions, the request
/// handed on); its cost is the difference.
///
/// Every round, and the callgrind profile (`engine-server-profile`), hands the frames to a new
/// authenticated engine, made ready outside the timing: one connection receiving these frames, as a
/// server does. Every `subscribe` of the corpus names another session, so each one adds a
/// subscription (about 1,200 by the end of a round of 20,000 corpus frames). An engine reused from
/// round to round would find every session of the later rounds subscribed already, and measure
/// lookups instead.
///
/// The frames are cut into blocks of ``EngineBenchmark/blockFrames``; in every block the two
/// contenders run one after the other, their order alternating from block to block, each block timed
/// on its own (thread CPU time), so that a change of load hits both alike. A round sums the blocks;
/// the report gives the median per-round ratio, the lowest and highest, and the ratio of the fastest
/// rounds. `--smoke`: a small corpus, one round, and the checks only (every frame valid, the engine
/// handing on exactly the decoder's messages).
enum ServerEngineBenchmark {
  /// The client-to-server frames among the first `count` corpus frames of `version`.
  static func frames(count: Int, version: String) throws -> [[UInt8]] {
    let reader = JSONReader(limits: .default)
    return try Corpus.generate(count: count, protocolVersion: version).frames.filter { frame in
      let type = try reader.parse(frame)["type"]?.stringValue ?? ""
      return ProtocolCatalog.latest.message(type)?.direction == .clientToServer
    }
  }

  static func decoder(_ version: String) -> MessageDecoder {
    MessageDecoder(options: ValidationOptions(direction: .clientToServer, version: ProtocolVersion(rawValue: version)!))
  }

  /// Checks that the engine hands on what the decoder decodes, and reports nothing as a violation.
  static func check(_ frames: [[UInt8]], version: String) throws {
    var engine = try EngineBenchmark.readyServer(version: version)
    let decoder = decoder(version)
    for frame in frames {
      guard case .client(let decoded) = try decoder.decode(frame) else { fatalError("not a client message") }
      let actions = try engine.handle(.received(.text(frame)), now: 1)
      for case .deliver(.violation(let violation)) in actions {
        fatalError("the corpus frame \(String(decoding: frame, as: UTF8.self)) is a violation: \(violation)")
      }
      for case .deliver(.request(let request)) in actions where request != decoded {
        fatalError("the engine handed on \(request), the decoder gave \(decoded)")
      }
    }
    precondition(engine.state == .authenticated, "the server engine closed")
  }

  struct Round {
    var decode = 0.0
    var engine = 0.0
  }

  /// One round: every block through both contenders.
  static func round(_ frames: [[UInt8]], version: String, engine: inout ServerEngine, decoder: MessageDecoder)
    throws -> Round
  {
    var round = Round()
    var actions = ServerActions()
    var decoded = 0
    var handled = 0
    var start = 0
    var block = 0
    while start < frames.count {
      let end = min(start + EngineBenchmark.blockFrames, frames.count)
      for contender in block % 2 == 0 ? [0, 1] : [1, 0] {
        let t0 = EngineBenchmark.cpu()
        if contender == 0 {
          for i in start..<end { if case .client = try decoder.decode(frames[i]) { decoded += 1 } }
          round.decode += EngineBenchmark.cpu() - t0
        } else {
          for i in start..<end {
            try engine.handle(.received(.text(frames[i])), now: 1, into: &actions)
            actions.drain { _ in handled += 1 }
          }
          round.engine += EngineBenchmark.cpu() - t0
        }
      }
      start = end
      block += 1
    }
    precondition(decoded == frames.count && handled >= 0, "a frame did not decode")
    return round
  }

  /// The client-to-server frames of `count` corpus frames, only those of type `only` when given.
  static func frames(count: Int, version: String, only: String?) throws -> [[UInt8]] {
    let frames = try frames(count: count, version: version)
    guard let only else { return frames }
    let reader = JSONReader(limits: .default)
    return try frames.filter { try reader.parse($0)["type"]?.stringValue == only }
  }

  // MARK: contenders for callgrind (each a function of its own: `--toggle-collect='*ServerEngineBenchmark*measured*'`)

  @inline(never)
  static func measuredEngine(_ frames: [[UInt8]], _ engine: inout ServerEngine) throws -> Int {
    var actions = ServerActions()
    var handled = 0
    for frame in frames {
      try engine.handle(.received(.text(frame)), now: 1, into: &actions)
      actions.drain { _ in handled += 1 }  // each action taken and released, as a host does once it performed it
    }
    return handled
  }

  @inline(never)
  static func measuredDecode(_ frames: [[UInt8]], _ decoder: MessageDecoder) throws -> Int {
    var decoded = 0
    for frame in frames { if case .client = try decoder.decode(frame) { decoded += 1 } }
    return decoded
  }

  /// `vcproto-bench engine-server-profile --contender engine|decode [--protocol V] [--frames N]
  /// [--only TYPE]`: one contender over the client-to-server frames once, for callgrind
  /// (`Benchmarks/instructions.sh --engine-server`); the engine is made ready outside the counted
  /// function.
  static func profile(count: Int, version: String, contender: String, only: String?) throws {
    let frames = try frames(count: count, version: version, only: only)
    var engine = try EngineBenchmark.readyServer(version: version)
    let work: Int
    switch contender {
    case "engine": work = try measuredEngine(frames, &engine)
    case "decode": work = try measuredDecode(frames, decoder(version))
    default: fatalError("--contender must be engine or decode")
    }
    print("frames \(frames.count) work \(work)")
  }

  static func run(count: Int, version: String, repetitions: Int, smoke: Bool, only: String? = nil) throws {
    let frames = try frames(count: count, version: version, only: only)
    try check(frames, version: version)
    let bytes = frames.reduce(0) { $0 + $1.count }
    print(
      "engine-server \(version): \(frames.count) client-to-server frames of \(count) corpus frames, \(bytes) bytes;"
        + " a new connection every round")
    if smoke {
      print("smoke: every frame handed on as the decoder decodes it, no violation")
      return
    }
    let decoder = decoder(version)
    // A new connection every round (see above).
    var engine = try EngineBenchmark.readyServer(version: version)
    _ = try round(frames, version: version, engine: &engine, decoder: decoder)  // warm up
    var rounds: [Round] = []
    for _ in 0..<repetitions {
      engine = try EngineBenchmark.readyServer(version: version)
      rounds.append(try round(frames, version: version, engine: &engine, decoder: decoder))
    }
    let n = Double(frames.count)
    let ratios = rounds.map { $0.engine / $0.decode - 1 }
    let fastest = (rounds.map(\.engine).min() ?? 0) / (rounds.map(\.decode).min() ?? 1) - 1
    print(
      String(
        format: "decode %.0f ns/frame, bytes -> engine -> typed event %.0f ns/frame (medians of %d rounds)",
        EngineBenchmark.median(rounds.map(\.decode)) / n * 1e9, EngineBenchmark.median(rounds.map(\.engine)) / n * 1e9,
        rounds.count))
    print(
      String(
        format: "engine over decoding: %.1f %% (rounds %.1f-%.1f %%; fastest rounds %.1f %%)",
        EngineBenchmark.median(ratios) * 100, (ratios.min() ?? 0) * 100, (ratios.max() ?? 0) * 100, fastest * 100))
  }
}
