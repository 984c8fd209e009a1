import Foundation
import VCProto

/// `vcproto-bench engine-server [--protocol 0.2.0|0.5.0] [--frames N] [--repetitions R] [--passes P]
/// [--block B] [--processes K] [--only TYPE] [--smoke]`: the server engine as a validation boundary
/// against `MessageDecoder` alone, on the same bytes: the client-to-server frames of the first N
/// (20,000) frames of the benchmark corpus of that version (pings, prompts, subscribes, commands,
/// ...), each handed to an authenticated ``ServerEngine`` as the WebSocket text message it arrived as
/// (`.received(.text(bytes))`, into one reused ``ServerActions`` buffer, each action then taken from
/// it) and, in the other contender, decoded by a `MessageDecoder` of the same version and direction.
/// The engine decodes each frame once itself, on the decoder's direct path, and acts on the typed
/// message (subscriptions, the request handed on); its cost is the difference.
///
/// Every pass over the frames, and the callgrind profile (`engine-server-profile`), hands them to a
/// new authenticated engine, made ready outside the timing: one connection receiving these frames, as
/// a server does. Every `subscribe` of the corpus names another session, so each one adds a
/// subscription (about 1,200 by the end of a pass over 20,000 corpus frames). An engine reused from
/// pass to pass would find every session of the later passes subscribed already, and measure lookups
/// instead.
///
/// The frames are cut into blocks of B (``blockFrames``, 128) frames; in every block the two
/// contenders run one after the other, their order alternating from block to block, from pass to pass
/// and from round to round, each block timed on its own (thread CPU time), so that a change of load
/// hits both alike. A round is P passes (by default ``passes(frames:)``: at least ``roundFrames``
/// frames a contender, some 20 ms of work each, where one pass is under 2 ms and rounds of one pass
/// spread from 1 % to 19 % on a busy machine) and sums their blocks; a process makes R rounds (21)
/// after a pass to warm up. Its figure is the median per-round ratio; it also reports the lowest and
/// highest, the ratio of the fastest rounds, and that of the block minima (each block's least time
/// over every pass of every round, per contender, summed).
///
/// The report is the median over K (5) processes, each measuring as above
/// (``run(count:version:repetitions:passes:block:processes:child:smoke:only:)`` says why: one
/// process measures one memory layout). `--processes 1` measures in this process. `--smoke`: a
/// small corpus and the checks only (every frame valid, the engine handing on exactly the decoder's
/// messages).
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

  /// Frames per interleaved block: about 60 us of work per contender (the same as
  /// ``EngineBenchmark/blockFrames``, so the two benchmarks switch between the contenders alike).
  static let blockFrames = EngineBenchmark.blockFrames

  /// The least number of frames each contender handles in a round.
  static let roundFrames = 40_000

  /// Passes over `frames` a round makes: enough for ``roundFrames``.
  static func passes(frames: Int) -> Int { max(1, (roundFrames + frames - 1) / max(1, frames)) }

  struct Round {
    var decode = 0.0
    var engine = 0.0
  }

  /// One round: `passes` passes over every block through both contenders, each pass with a new
  /// connection (made ready outside the timing); `minima` keeps each block's least time per contender.
  static func round(
    _ frames: [[UInt8]], version: String, passes: Int, block size: Int, number: Int, decoder: MessageDecoder,
    minima: inout [Round]
  ) throws -> Round {
    var round = Round()
    var actions = ServerActions()
    var decoded = 0
    var handled = 0
    for pass in 0..<passes {
      var engine = try EngineBenchmark.readyServer(version: version)
      var start = 0
      var block = 0
      while start < frames.count {
        let end = min(start + size, frames.count)
        for step in 0..<2 {
          let t0 = EngineBenchmark.cpu()
          if (step + block + pass + number) % 2 == 0 {
            for i in start..<end { if case .client = try decoder.decode(frames[i]) { decoded += 1 } }
            let t = EngineBenchmark.cpu() - t0
            round.decode += t
            minima[block].decode = min(minima[block].decode, t)
          } else {
            for i in start..<end {
              try engine.handle(.received(.text(frames[i])), now: 1, into: &actions)
              actions.drain { _ in handled += 1 }
            }
            let t = EngineBenchmark.cpu() - t0
            round.engine += t
            minima[block].engine = min(minima[block].engine, t)
          }
        }
        start = end
        block += 1
      }
      precondition(engine.state == .authenticated, "the server engine closed")
    }
    precondition(decoded == frames.count * passes && handled >= frames.count * passes, "a frame did no work")
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

  /// `repetitions` rounds of `passes` passes in blocks of `size` frames, after one pass to warm up.
  static func measure(_ frames: [[UInt8]], version: String, repetitions: Int, passes: Int, size: Int) throws
    -> ProcessFigures
  {
    let decoder = decoder(version)
    let blocks = (frames.count + size - 1) / size
    var minima = [Round](repeating: Round(decode: .infinity, engine: .infinity), count: blocks)
    var ignored = minima
    _ = try round(frames, version: version, passes: 1, block: size, number: 0, decoder: decoder, minima: &ignored)
    var rounds: [Round] = []
    for number in 0..<repetitions {
      rounds.append(
        try round(
          frames, version: version, passes: passes, block: size, number: number, decoder: decoder, minima: &minima))
    }
    var m = ProcessFigures(
      decode: rounds.map(\.decode), engines: rounds.map(\.engine), frames: frames.count * passes)
    m.minima = minima.reduce(0) { $0 + $1.engine } / minima.reduce(0) { $0 + $1.decode } - 1
    return m
  }

  /// `processes` > 1: each measurement runs in a process of its own (this executable again, with
  /// `--processes 1 --child`), and the report is the median over the processes. Why: the figure
  /// depends on where the process's code, stack and heap land (address space layout
  /// randomisation). On the build machine, under the same load, runs of one process each gave
  /// 7.8-11.2 % while the rounds within each run agreed to a few points, and four runs without
  /// randomisation (`setarch -R`) gave 5.7-6.8 %: one process measures one layout, so a figure of one
  /// process can be off by more than the margin to the target.
  static func run(
    count: Int, version: String, repetitions: Int, passes: Int? = nil, block: Int? = nil, processes: Int = 1,
    child: Bool = false, smoke: Bool, only: String? = nil
  ) throws {
    let frames = try frames(count: count, version: version, only: only)
    let passes = passes ?? Self.passes(frames: frames.count)
    let size = block ?? blockFrames
    if child {
      print(try measure(frames, version: version, repetitions: repetitions, passes: passes, size: size).line)
      return
    }
    try check(frames, version: version)
    let bytes = frames.reduce(0) { $0 + $1.count }
    print(
      "engine-server \(version): \(frames.count) client-to-server frames of \(count) corpus frames, \(bytes) bytes;"
        + " a new connection every pass")
    if smoke {
      print("smoke: every frame handed on as the decoder decodes it, no violation")
      return
    }
    print(
      "thread CPU time; the contenders interleaved in blocks of \(size) frames; rounds of \(passes) passes"
        + " (\(passes * frames.count) frames a contender), \(repetitions) rounds a process, \(processes) processes")
    guard processes > 1 else {
      report(try measure(frames, version: version, repetitions: repetitions, passes: passes, size: size))
      return
    }
    var measurements: [ProcessFigures] = []
    for _ in 0..<processes {
      var arguments = [
        "engine-server", "--protocol", version, "--frames", "\(count)", "--repetitions", "\(repetitions)",
        "--passes", "\(passes)", "--block", "\(size)", "--processes", "1", "--child",
      ]
      if let only { arguments += ["--only", only] }
      let m = try MeasuringProcess.figures(arguments, parts: 1)[0]
      print(
        String(
          format: "  process %d: engine over decoding %.1f %% (rounds %.1f-%.1f %%; block minima %.1f %%)",
          measurements.count + 1, m.median * 100, m.lowest * 100, m.highest * 100, m.minima * 100))
      measurements.append(m)
    }
    let medians = measurements.map(\.median)
    let minima = measurements.map(\.minima)
    print(
      String(
        format: "decode %.0f ns/frame, bytes -> engine -> typed event %.0f ns/frame (medians of %d processes)",
        EngineBenchmark.median(measurements.map(\.decodeNs)), EngineBenchmark.median(measurements.map(\.engineNs)),
        processes))
    print(
      String(
        format: "engine over decoding: %.1f %% (median of %d processes, each the median of its rounds; processes "
          + "%.1f-%.1f %%; block minima %.1f %%, processes %.1f-%.1f %%)",
        EngineBenchmark.median(medians) * 100, processes, (medians.min() ?? 0) * 100, (medians.max() ?? 0) * 100,
        EngineBenchmark.median(minima) * 100, (minima.min() ?? 0) * 100, (minima.max() ?? 0) * 100))
  }

  static func report(_ m: ProcessFigures) {
    print(
      String(
        format: "decode %.0f ns/frame, bytes -> engine -> typed event %.0f ns/frame (medians of the rounds)",
        m.decodeNs, m.engineNs))
    print(
      String(
        format: "engine over decoding: %.1f %% (rounds %.1f-%.1f %%; fastest rounds %.1f %%; block minima %.1f %%)",
        m.median * 100, m.lowest * 100, m.highest * 100, m.fastest * 100, m.minima * 100))
  }

}
