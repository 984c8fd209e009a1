import Foundation
import VCProto

/// `vcproto-bench engine-phases [--protocol V] [--frames N] [--workload W] [--passes P]`: where the
/// engines' time goes in the host pipeline, per `session_history` frame. A diagnostic, not the
/// target's measurement (``EngineBenchmark``): every phase is timed on its own with the monotonic
/// clock, whose reads (tens of nanoseconds each) are counted in the phases.
///
/// Passes alternate between the host pipeline and parsing alone, each with the same clock reads
/// around the parse. For each history frame the pipeline times its parse, the application's requests
/// before it (``EngineBenchmark/Kind/firstContact``, ``EngineBenchmark/Kind/manyOpen``: an unsubscribe
/// and a subscribe of ids the application has just made, ``EngineBenchmark/Requests``, whose making is
/// not timed; then the release of the frames they produced), the client engine's handling of the
/// frame, and the release of its
/// actions (which frees the parsed tree: the update holds its messages). Parsing alone times the
/// parse and the tree's free. The report gives each phase, and the differences that are the engines'
/// cost: the parse slowed by the engines (caches they share with it), the requests, the handling, and
/// the release beyond the tree's own free; each also as a share of decoding the same frames.
enum EnginePhases {
  @inline(__always)
  static func now() -> Int {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec * 1_000_000_000 + t.tv_nsec
  }

  /// Nanoseconds summed over the history frames of the passes.
  struct Sums {
    var parse = 0, unsubscribe = 0, subscribe = 0, requestRelease = 0, handle = 0, release = 0
    var aloneParse = 0, aloneFree = 0, decode = 0
    var frames = 0, aloneFrames = 0, decodedFrames = 0
  }

  static func run(count: Int, version: String, kind: EngineBenchmark.Kind, passes: Int) throws {
    let (w, isHistory) = try EngineBenchmark.workload(count: count, version: version, kind: kind)
    let reader = JSONReader(limits: .default)
    let decoder = MessageDecoder(options: ValidationOptions(version: ProtocolVersion(rawValue: version)!))
    var sums = Sums()
    var sink = 0
    for _ in 0..<max(1, passes) {
      try pipeline(w, isHistory, reader, &sums, &sink)
      try parseAlone(w, isHistory, reader, &sums, &sink)
      for i in w.frames.indices where isHistory[i] {
        let t0 = now()
        _ = try decoder.decode(w.frames[i])
        sums.decode += now() - t0
        sums.decodedFrames += 1
      }
    }
    precondition(sink != 0 && sums.frames > 0, "no history frame was handled")
    report(sums, version: version, kind: kind)
  }

  @inline(never)
  static func pipeline(
    _ w: EngineBenchmark.Workload, _ isHistory: [Bool], _ reader: JSONReader, _ s: inout Sums,
    _ sink: inout Int
  ) throws {
    var e = try EngineBenchmark.Engines(w)
    for i in w.frames.indices {
      let t0 = now()
      guard case .object(let o) = try reader.parse(w.frames[i]) else { continue }
      let t1 = now()
      sink &+= o.count
      // The application makes its requests' ids (not timed: its work, not the engines').
      let requests = EngineBenchmark.Requests(w, i)
      guard isHistory[i], !w.towardServer[i] else {
        try e.prepare(requests)
        try e.feed(consume o, towardServer: w.towardServer[i])
        continue
      }
      let t1b = now()
      try e.unsubscribe(requests.close)
      let t2 = now()
      try e.subscribe(requests.open)
      let t3 = now()
      e.releaseClientActions()
      let t4 = now()
      try e.client.handle(.received(.text(JSONValue.object(o).jsonText)), now: 1, into: &e.clientActions)
      let t5 = now()
      e.releaseClientActions()
      let t6 = now()
      s.parse += t1 - t0
      s.unsubscribe += t2 - t1b
      s.subscribe += t3 - t2
      s.requestRelease += t4 - t3
      s.handle += t5 - t4
      s.release += t6 - t5
      s.frames += 1
    }
  }

  @inline(never)
  static func parseAlone(
    _ w: EngineBenchmark.Workload, _ isHistory: [Bool], _ reader: JSONReader, _ s: inout Sums,
    _ sink: inout Int
  ) throws {
    for i in w.frames.indices {
      let t0 = now()
      var t1 = 0
      do {
        guard case .object(let o) = try reader.parse(w.frames[i]) else { continue }
        t1 = now()
        sink &+= o.count
      }  // The tree is freed here, after its last use.
      let t2 = now()
      if isHistory[i], !w.towardServer[i] {
        s.aloneParse += t1 - t0
        s.aloneFree += t2 - t1
        s.aloneFrames += 1
      }
    }
  }

  static func report(_ s: Sums, version: String, kind: EngineBenchmark.Kind) {
    func per(_ total: Int, _ n: Int) -> Double { Double(total) / Double(max(1, n)) }
    let decode = per(s.decode, s.decodedFrames)
    let parse = per(s.parse, s.frames)
    let alone = per(s.aloneParse, s.aloneFrames)
    let requests = per(s.unsubscribe + s.subscribe + s.requestRelease, s.frames)
    let handle = per(s.handle, s.frames)
    let release = per(s.release, s.frames)
    let free = per(s.aloneFree, s.aloneFrames)
    func line(_ name: String, _ ns: Double) -> String {
      "  " + name.padding(toLength: 44, withPad: " ", startingAt: 0)
        + String(format: "%7.0f ns  %5.1f %% of decode", ns, ns / decode * 100)
    }
    print("\n## engine phases, protocol \(version), \(kind.rawValue) workload: \(s.frames) session_history frames")
    print("monotonic clock around each phase (the reads are counted); ns per history frame")
    print(String(format: "  decode alone %.0f; parse alone %.0f, its free %.0f", decode, alone, free))
    print(
      String(
        format:
          "  pipeline: parse %.0f; unsubscribe %.0f, subscribe %.0f, their release %.0f; handle %.0f, release %.0f",
        parse, per(s.unsubscribe, s.frames), per(s.subscribe, s.frames), per(s.requestRelease, s.frames), handle,
        release))
    print(line("parse slowed by the engines", parse - alone))
    print(line("requests (unsubscribe, subscribe, release)", requests))
    print(line("handling the frame", handle))
    print(line("release beyond the tree's free", release - free))
    print(line("sum", parse - alone + requests + handle + release - free))
  }
}
