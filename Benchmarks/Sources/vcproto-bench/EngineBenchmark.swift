import Foundation
import VCProto

/// `vcproto-bench engine [--protocol 0.2.0|0.5.0] [--frames N] [--repetitions R]
/// [--workload steady|first-contact|many-open|all-subscribed|all] [--smoke]`: the connection engines' cost per
/// frame against decoding alone, on the benchmark corpus of that version (0.2.0 by default; engines
/// and decoder negotiated at the same version). Server-to-client frames go to a client engine (ready,
/// subscribed to the history's session, so `session_history` frames take the dedup path),
/// client-to-server frames to an authenticated server engine; each engine appends its actions to one
/// reused buffer (`handle(_:now:into:)`), as a host that cares about cost does.
///
/// Four workloads (``Kind``), all by default; the first two are how the real app uses a connection,
/// and the target is judged on them:
/// - **steady**: a client following four sessions whose histories continue one another (resumed
///   from their cursors as the files grow);
/// - **first-contact**: the user opens session after session, as the real iOS client does it: it
///   subscribes when a conversation view appears and unsubscribes when it disappears or when the macOS
///   sidebar switches session (upstream `ios/VoiceCode/Views/ConversationView.swift` lines 676-686 and
///   714-718 at commit `1e7bcc30`), so before each history of a new session the application
///   unsubscribes the one it showed before and subscribes to the new one. The subscribe and
///   unsubscribe requests count as engine work;
/// - **many-open**: a stress case, not a use: the same, but the application keeps ``manyOpenSessions``
///   sessions open and unsubscribes the oldest, whose state has gone cold in memory by then (closing
///   it is a chain of cache misses);
/// - **all-subscribed**: a stress case, not a use: every session of the corpus (thousands, over ten
///   times the default ``ClientConfiguration/maxSubscriptions``) subscribed before the run, each
///   history the first of its session, so every history finds its subscription cold in memory.
///
/// The 0.5.0 workload is the 0.5.0 corpus (histories of canonical messages with `offset`s, a cursor of
/// `next_offset`, `end_of_file` and `file_signature`; 20 % of them end before the end of the file, so
/// the client engine asks for the continuation), with `"file_replaced": true` added to every
/// ``fileReplacedEvery``-th `session_history` (the engine purges the session and subscribes from 0).
///
/// Two measurements, each against `MessageDecoder` (the decoding the target is stated against):
///
/// - **host pipeline** (the figure the target is judged on): what a host does per received frame.
///   It parses the bytes into `JSONValue` (`JSONReader`) and hands the frame to its engine at once;
///   the engines' cost is that minus parsing alone. The corpus is cut into blocks of
///   ``blockFrames`` frames; in every block the three contenders (parse, parse + engine, decode) run
///   one after another, their order rotating from block to block, each block timed on its own. A
///   round sums the blocks, so each round gives the three totals measured within milliseconds of one
///   another: the load of the machine moves all three together and cancels out of the difference.
/// - **cache-cold**: the engines alone on frames parsed long before (the whole corpus, 67 MB, is
///   parsed first), so every message they read comes from memory. No host does this; it bounds the
///   cost of the memory traffic the engines cause.
///
/// Every ratio is computed per round; the report gives the median over the rounds with the lowest and
/// highest, and the ratio of the fastest rounds. Times are thread CPU time.
enum EngineBenchmark {
  /// Frames per interleaved block: about 1-2 ms of work per contender, long enough for the clock and
  /// short enough that a change of load hits the three contenders alike.
  static let blockFrames = 128

  static func cpu() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }

  static func obj(_ value: JSONValue) -> JSONObject { value.objectValue! }

  static let key = "untethered-0123456789abcdef0123456789abcdef"

  /// Every ``fileReplacedEvery``-th `session_history` of the 0.5.0 workload says `file_replaced`.
  static let fileReplacedEvery = 40

  static func readyClient(sessions: [String], version: String) throws -> ClientEngine {
    var engine = ClientEngine(
      ClientConfiguration(
        apiKey: key, maximumVersion: ProtocolVersion(rawValue: version)!, allowAuthV1: true, maxPendingRequests: 256,
        maxSubscriptions: 100_000))
    for id in sessions { _ = try engine.handle(.subscribe(sessionId: id, cursor: nil), now: 0) }
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    _ = try engine.handle(
      .received(
        .text(#"{"type":"hello","message":"m","version":"\#(version)","auth_version":1,"instructions":"i"}"#)),
      now: 0)
    if version == "0.2.0" {
      // A 0.2.0 server sends no `connected`: any frame after `connect` but `auth_error` is success.
      _ = try engine.handle(.received(.text(#"{"type":"pong"}"#)), now: 0)
      _ = try engine.handle(.received(.text(#"{"type":"session_list","sessions":[],"total_count":0}"#)), now: 0)
    } else {
      _ = try engine.handle(
        .received(
          .text(
            #"{"type":"connected","message":"m","session_id":null,"negotiated_protocol_version":"\#(version)"}"#)),
        now: 0)
    }
    precondition(engine.state == .ready && engine.negotiatedVersion?.description == version, "client engine not ready")
    return engine
  }

  static func readyServer(version: String) throws -> ServerEngine {
    let offer = ServerOffer(versions: version == "0.2.0" ? .legacy : .negotiating(floor: .v0_5_0, ceiling: .v0_5_0))
    var engine = ServerEngine(ServerConfiguration(offer: offer, apiKey: key, maxSubscriptions: 100_000))
    _ = try engine.handle(.transportOpened(challenge: nil), now: 0)
    var connect = obj(["type": "connect", "api_key": .string(key)])
    if version != "0.2.0" { connect["protocol_version"] = .string(version) }
    _ = try engine.handle(.received(.text(JSONValue.object(connect).jsonText)), now: 0)
    precondition(engine.state == .authenticated, "server engine not authenticated")
    return engine
  }

  /// The frames of one run, with what routes each to its engine.
  struct Workload {
    var frames: [[UInt8]]
    /// `true` for a client-to-server frame (it goes to the server engine).
    var towardServer: [Bool]
    /// The sessions the client engine subscribes to before the run.
    var sessions: [String]
    /// The protocol version of the frames, the engines and the decoder.
    var version: String
    /// ``Kind/firstContact`` and ``Kind/manyOpen``: what the application does before frame `i`: unsubscribe `close`, then
    /// subscribe `open` (empty for the other kinds).
    var opens: [(close: String?, open: String?)] = []
    var bytes: Int { frames.reduce(0) { $0 + $1.count } }

    func subset(_ keep: (Int) -> Bool) -> Workload {
      let kept = frames.indices.filter(keep)
      return Workload(
        frames: kept.map { frames[$0] }, towardServer: kept.map { towardServer[$0] }, sessions: sessions,
        version: version, opens: opens.isEmpty ? [] : kept.map { opens[$0] })
    }
  }

  /// Which history traffic the client engine sees.
  enum Kind: String, CaseIterable {
    /// A client following ``steadySessions`` sessions: every `session_history` belongs to one of them
    /// and continues it (0.5.0: offsets from the session's `next_offset`, a signature whose length
    /// grows over the same first record), so the engine's subscriptions, windows and hash lookups stay
    /// small and warm, as in the real app (a handful of sessions open, resumed as they grow).
    case steady
    /// Every `session_history` is the first of a session never seen before (the corpus as generated),
    /// subscribed to just before it, the session shown before it unsubscribed (one open at a time).
    case firstContact = "first-contact"
    /// ``firstContact`` keeping ``manyOpenSessions`` open, the oldest unsubscribed.
    case manyOpen = "many-open"
    /// The corpus as generated with every session subscribed before the run: thousands of
    /// subscriptions, each touched once, cold (the engine's worst case for memory traffic).
    case allSubscribed = "all-subscribed"
  }

  /// The sessions a ``Kind/manyOpen`` client keeps open (a ``Kind/firstContact`` client keeps one).
  static let manyOpenSessions = 32

  /// The sessions a ``Kind/steady`` client follows.
  static let steadySessions = 4

  /// Rewrites the corpus's `session_history` frames into ``Kind/steady`` traffic.
  struct SteadySessions {
    let version: String
    let ids = (0..<steadySessions).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
    /// 0.5.0: each session's next offset and its file's first record (a new one after `file_replaced`).
    var next = [Int](repeating: 0, count: steadySessions)
    var firstRecord = (0..<steadySessions).map { String(format: "first-record-%d-0", $0) }
    var replacements = 0
    var histories = 0

    /// `frame` given to the next steady session (its session id on the frame and on every message;
    /// 0.5.0: offsets shifted to continue that session, its signature).
    mutating func rewrite(_ frame: inout JSONObject) {
      let number = histories % steadySessions
      histories += 1
      let id = ids[number]
      frame["session_id"] = .string(id)
      guard var messages = frame["messages"]?.arrayValue else { return }
      let first = messages.first?["offset"]?.intValue ?? frame["next_offset"]?.intValue ?? 0
      let shift = next[number] - first
      for index in messages.indices {
        guard case .object(var message) = messages[index] else { continue }
        if message["session_id"] != nil { message["session_id"] = .string(id) }
        if version != "0.2.0", let offset = message["offset"]?.intValue {
          message["offset"] = JSONValue(integerLiteral: offset + shift)
        }
        messages[index] = .object(message)
      }
      frame["messages"] = .array(messages)
      if version != "0.2.0", let nextOffset = frame["next_offset"]?.intValue {
        let continued = nextOffset + shift
        frame["next_offset"] = JSONValue(integerLiteral: continued)
        frame["file_signature"] = .string("\(continued * 700):\(firstRecord[number])")
        if frame["file_replaced"]?.boolValue == true {
          // The provider rewrote the file: the engine reloads from 0, and the new file starts there.
          replacements += 1
          firstRecord[number] = String(format: "first-record-%d-%d", number, replacements)
          next[number] = 0
        } else {
          next[number] = continued
        }
      }
    }
  }

  /// The workload of the first `count` corpus frames of `version` as `kind` traffic, and which of them
  /// are `session_history`.
  static func workload(count: Int, version: String, kind: Kind) throws -> (Workload, isHistory: [Bool]) {
    var frames = Corpus.generate(count: count, protocolVersion: version).frames
    let reader = JSONReader(limits: .default)
    let catalog = ProtocolCatalog.latest
    var towardServer: [Bool] = []
    var isHistory: [Bool] = []
    var sessions = Set<String>()
    var histories = 0
    var steady = SteadySessions(version: version)
    // First contact: the sessions open, oldest first, and what the application does before each frame.
    var open: [String] = []
    var opens: [(close: String?, open: String?)] = []
    for index in frames.indices {
      guard case .object(var o) = try reader.parse(frames[index]) else { fatalError("not an object") }
      let type = o["type"]?.stringValue ?? ""
      towardServer.append(catalog.message(type)?.direction == .clientToServer)
      isHistory.append(type == "session_history")
      var changed = false
      if type == "session_history", version != "0.2.0" {
        histories += 1
        if histories % fileReplacedEvery == 0 {
          o["file_replaced"] = true
          changed = true
        }
      }
      if type == "session_history", kind == .steady {
        steady.rewrite(&o)
        changed = true
      }
      // Frames are serialized again only when changed (the generator's text is kept otherwise).
      if changed { frames[index] = Array(JSONValue.object(o).jsonText.utf8) }
      switch kind {
      case .steady:
        if type == "session_history", let id = o["session_id"]?.stringValue { sessions.insert(id) }
      case .allSubscribed:
        if let id = o["session_id"]?.stringValue { sessions.insert(id) }
      case .firstContact, .manyOpen:
        let limit = kind == .manyOpen ? manyOpenSessions : 1
        var step: (close: String?, open: String?) = (nil, nil)
        if type == "session_history", let id = o["session_id"]?.stringValue, !open.contains(id) {
          if open.count == limit { step.close = open.removeFirst() }
          open.append(id)
          step.open = id
        }
        opens.append(step)
      }
    }
    return (
      Workload(
        frames: frames, towardServer: towardServer, sessions: sessions.sorted(), version: version, opens: opens),
      isHistory
    )
  }

  /// The session ids the application passes before a frame (``Kind/firstContact``,
  /// ``Kind/manyOpen``): the one it closes, the one it opens.
  struct Requests {
    var close: String?
    var open: String?

    /// Frame `index`'s requests as the real client makes them: a new string for each call (it passes
    /// `session.id.uuidString.lowercased()`, `ConversationView.swift` at `1e7bcc30`), made from the
    /// workload's copy of the id. Both the parse and the pipeline contenders make them, so making them
    /// (reading the workload's copy, which the corpus's 60 MB have pushed out of every cache, and
    /// allocating the string) is not counted as the engines' work; the engines get the string the
    /// application just made, as they do in the app. (Passing the workload's own strings instead made
    /// the `subscribe` pay a miss to memory for the application's id: about 130 ns a history.)
    @inline(__always)
    init(_ w: Workload, _ index: Int) {
      guard !w.opens.isEmpty else { return }
      close = w.opens[index].close.map(Self.fresh)
      open = w.opens[index].open.map(Self.fresh)
    }

    /// Frame `index`'s requests with the workload's own strings (the cache-cold contender, which
    /// measures the engines on memory that is not in any cache).
    init(stored w: Workload, _ index: Int) {
      guard !w.opens.isEmpty else { return }
      (close, open) = w.opens[index]
    }

    /// A new string with `id`'s bytes (not `id`'s storage).
    @inline(__always)
    static func fresh(_ id: String) -> String {
      var id = id
      return id.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the requests (what the parse contender keeps of them).
    var bytes: Int { (close?.utf8.count ?? 0) + (open?.utf8.count ?? 0) }
  }

  /// Both engines, ready, with their reused action buffers.
  struct Engines {
    var client: ClientEngine
    var server: ServerEngine
    var clientActions: [ClientAction] = []
    var serverActions: [ServerAction] = []
    /// Actions the engines produced (checked, so that no work can be optimised away).
    var actions = 0

    init(_ w: Workload) throws {
      client = try readyClient(sessions: w.sessions, version: w.version)
      server = try readyServer(version: w.version)
      clientActions.reserveCapacity(64)
      serverActions.reserveCapacity(64)
    }

    /// What the application does before a frame (``Kind/firstContact``, ``Kind/manyOpen``):
    /// unsubscribe, subscribe (``Requests``).
    @inline(__always)
    mutating func prepare(_ requests: Requests) throws {
      try unsubscribe(requests.close)
      try subscribe(requests.open)
      releaseClientActions()
    }

    /// ``prepare(_:)``'s unsubscribe, if any (its actions kept).
    @inline(__always)
    mutating func unsubscribe(_ id: String?) throws {
      guard let id else { return }
      try client.handle(.unsubscribe(sessionId: id), now: 1, into: &clientActions)
    }

    /// ``prepare(_:)``'s subscribe, if any (its actions kept).
    @inline(__always)
    mutating func subscribe(_ id: String?) throws {
      guard let id else { return }
      try client.handle(.subscribe(sessionId: id, cursor: nil), now: 1, into: &clientActions)
    }

    /// Counts the client engine's actions and releases them, as a host does once it has performed them.
    @inline(__always)
    mutating func releaseClientActions() {
      actions += clientActions.count
      clientActions.removeAll(keepingCapacity: true)
    }

    /// Hands one parsed frame to its engine, as a host does: the frame moves into the event (a host
    /// that keeps no other use of it pays no reference count for it).
    @inline(__always)
    mutating func feed(_ frame: consuming JSONObject, towardServer: Bool) throws {
      if towardServer {
        // The server engine takes the message's bytes (it decodes them itself): written back here, a
        // cost this parsed-frame pipeline adds to the server's share (`engine-server` measures the
        // server from the bytes).
        try server.handle(.received(.text(JSONValue.object(frame).jsonText)), now: 1, into: &serverActions)
        actions += serverActions.count
        serverActions.removeAll(keepingCapacity: true)
      } else {
        try client.handle(.received(.text(JSONValue.object(frame).jsonText)), now: 1, into: &clientActions)
        releaseClientActions()
      }
    }
  }

  // MARK: contenders (each a function of its own, so that callgrind can count exactly its work)

  @inline(never)
  static func measuredParse(_ w: Workload, _ range: Range<Int>, _ reader: JSONReader) throws -> Int {
    var members = 0
    for i in range {
      guard case .object(let o) = try reader.parse(w.frames[i]) else { continue }
      // The application's own work before the frame, as in the pipeline (``Requests``).
      members += o.count + Requests(w, i).bytes
    }
    return members
  }

  @inline(never)
  static func measuredPipeline(_ w: Workload, _ range: Range<Int>, _ reader: JSONReader, _ e: inout Engines) throws
    -> Int
  {
    var members = 0
    for i in range {
      guard case .object(let o) = try reader.parse(w.frames[i]) else { continue }
      members += o.count
      try e.prepare(Requests(w, i))
      try e.feed(consume o, towardServer: w.towardServer[i])
    }
    return members
  }

  /// The application's requests alone (``Engines/prepare(_:)`` before every frame, no frame parsed
  /// or handled): what ``Kind/firstContact`` and ``Kind/manyOpen`` add besides the histories, for
  /// callgrind.
  @inline(never)
  static func measuredRequests(_ w: Workload, _ range: Range<Int>, _ e: inout Engines) throws -> Int {
    for i in range { try e.prepare(Requests(w, i)) }
    return e.actions
  }

  @inline(never)
  static func measuredDecode(_ w: Workload, _ range: Range<Int>, _ decoder: MessageDecoder) throws -> Int {
    var decoded = 0
    for i in range {
      _ = try decoder.decode(w.frames[i])
      decoded += 1
    }
    return decoded
  }

  @inline(never)
  static func measuredCold(_ parsed: [JSONObject], _ w: Workload, _ e: inout Engines) throws {
    for i in parsed.indices {
      try e.prepare(Requests(stored: w, i))
      try e.feed(parsed[i], towardServer: w.towardServer[i])
    }
  }

  /// Per-round figures of one workload: seconds per contender in each round.
  struct Rounds {
    var parse: [Double] = []
    var pipeline: [Double] = []
    var decode: [Double] = []
    var cold: [Double] = []
  }

  /// One round of the host pipeline on `w`: the block-interleaved parse, parse + engine and decode,
  /// then the cold engines on `parsed` (fresh engines for each, built before any clock starts).
  static func oneRound(_ w: Workload, parsed: [JSONObject], number: Int, into r: inout Rounds) throws {
    let reader = JSONReader(limits: .default)
    let decoder = MessageDecoder(options: ValidationOptions(version: ProtocolVersion(rawValue: w.version)!))
    var engines = try Engines(w)
    var totals = [0.0, 0.0, 0.0]
    var sink = 0
    var block = 0
    var start = 0
    while start < w.frames.count {
      let range = start..<min(w.frames.count, start + blockFrames)
      for step in 0..<3 {
        let contender = (step + block + number) % 3
        let t0 = cpu()
        switch contender {
        case 0: sink &+= try measuredParse(w, range, reader)
        case 1: sink &+= try measuredPipeline(w, range, reader, &engines)
        default: sink &+= try measuredDecode(w, range, decoder)
        }
        totals[contender] += cpu() - t0
      }
      block += 1
      start = range.upperBound
    }
    precondition(sink != 0 && engines.actions >= w.frames.count / 2, "the contenders did no work")
    r.parse.append(totals[0])
    r.pipeline.append(totals[1])
    r.decode.append(totals[2])
    var cold = try Engines(w)
    let t0 = cpu()
    try measuredCold(parsed, w, &cold)
    r.cold.append(cpu() - t0)
    precondition(cold.actions >= w.frames.count / 2, "the cold engines did no work")
  }

  static func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }

  /// `median % (min-max %)` of a per-round ratio, and the ratio of the fastest rounds.
  static func spread(_ ratios: [Double], fastest: Double) -> String {
    String(
      format: "%5.1f %% (rounds %.1f-%.1f %%; fastest rounds %.1f %%)", median(ratios) * 100,
      (ratios.min() ?? 0) * 100, (ratios.max() ?? 0) * 100, fastest * 100)
  }

  static func report(_ name: String, _ w: Workload, _ r: Rounds) {
    let n = Double(max(1, w.frames.count))
    let engine = zip(r.pipeline, r.parse).map { $0 - $1 }
    let pipelineShare = zip(engine, r.decode).map { $0 / $1 }
    let parseShare = zip(engine, r.parse).map { $0 / $1 }
    let coldShare = zip(r.cold, r.decode).map { $0 / $1 }
    let fastestEngine = (r.pipeline.min() ?? 0) - (r.parse.min() ?? 0)
    print("\n\(name): \(w.frames.count) frames, \(w.bytes) bytes (median of \(r.decode.count) rounds, ns/frame)")
    print(
      String(
        format: "  decode %.0f, parse %.0f, parse + engines %.0f; engines in the pipeline %.0f, cache-cold %.0f",
        median(r.decode) / n * 1e9, median(r.parse) / n * 1e9, median(r.pipeline) / n * 1e9, median(engine) / n * 1e9,
        median(r.cold) / n * 1e9))
    print(
      "  host pipeline, engines / decode: "
        + spread(pipelineShare, fastest: fastestEngine / (r.decode.min() ?? 1)) + "   (target < 10 %)")
    print(
      "  host pipeline, engines / parse:  "
        + spread(parseShare, fastest: fastestEngine / (r.parse.min() ?? 1)))
    print(
      "  cache-cold, engines / decode:    "
        + spread(coldShare, fastest: (r.cold.min() ?? 0) / (r.decode.min() ?? 1)))
  }

  static func run(count: Int, version: String, kinds: [Kind], repetitions: Int, smoke: Bool) throws {
    for kind in kinds { try run(count: count, version: version, kind: kind, repetitions: repetitions) }
    if smoke { print("\nsmoke: engine 1 passed, 0 failed") }
  }

  static func run(count: Int, version: String, kind: Kind, repetitions: Int) throws {
    let (all, isHistory) = try workload(count: count, version: version, kind: kind)
    let workloads = [
      ("whole corpus", all), ("session_history frames", all.subset { isHistory[$0] }),
      ("all other frames", all.subset { !isHistory[$0] }),
    ]
    let reader = JSONReader(limits: .default)
    // Parsed once, long before the cold contender reads them (the subsets share the whole corpus's trees).
    let parsedAll = try all.frames.map { obj(try reader.parse($0)) }
    let parsed = [
      parsedAll, parsedAll.indices.filter { isHistory[$0] }.map { parsedAll[$0] },
      parsedAll.indices.filter { !isHistory[$0] }.map { parsedAll[$0] },
    ]
    var rounds = [Rounds](repeating: Rounds(), count: workloads.count)
    for number in 0..<repetitions {
      for (i, (_, w)) in workloads.enumerated() { try oneRound(w, parsed: parsed[i], number: number, into: &rounds[i]) }
    }
    print(
      "\n## connection engines, protocol \(version), \(kind.rawValue) workload (\(all.sessions.count) sessions "
        + "subscribed), \(all.frames.count) frames (\(all.towardServer.filter { !$0 }.count) to a client "
        + "engine, \(all.towardServer.filter { $0 }.count) to a server engine), \(all.bytes) bytes")
    print(
      "thread CPU time; host pipeline: parse, parse + engines and decode interleaved in blocks of \(blockFrames) "
        + "frames; \(repetitions) rounds")
    for (i, (name, w)) in workloads.enumerated() { report(name, w, rounds[i]) }
  }

  /// `vcproto-bench engine-profile --contender parse|pipeline|decode|cold|requests [--protocol V] [--frames N]
  /// [--only history|other] [--workload steady|first-contact|many-open|all-subscribed] [--passes P]`:
  /// one contender over the workload (P times, 1 by default: more gives a sampling profiler enough samples), for `valgrind --tool=callgrind --toggle-collect='*measured*'`
  /// (`Benchmarks/instructions.sh --engine`): only the contender's own work is counted, not the corpus,
  /// the parsing done beforehand or the engines' setup.
  static func profile(count: Int, version: String, kind: Kind, contender: String, only: String?, passes: Int) throws {
    let (all, isHistory) = try workload(count: count, version: version, kind: kind)
    let w: Workload
    switch only {
    case "history": w = all.subset { isHistory[$0] }
    case "other": w = all.subset { !isHistory[$0] }
    default: w = all
    }
    let reader = JSONReader(limits: .default)
    let parsed = contender == "cold" ? try w.frames.map { obj(try reader.parse($0)) } : []
    let decoder = MessageDecoder(options: ValidationOptions(version: ProtocolVersion(rawValue: version)!))
    var sink = 0
    var actions = 0
    // Each pass on fresh engines (built outside the counted functions), so every pass does the same work.
    for _ in 0..<max(1, passes) {
      var engines = try Engines(w)
      switch contender {
      case "parse": sink &+= try measuredParse(w, w.frames.indices, reader)
      case "pipeline": sink &+= try measuredPipeline(w, w.frames.indices, reader, &engines)
      case "decode": sink &+= try measuredDecode(w, w.frames.indices, decoder)
      case "cold": try measuredCold(parsed, w, &engines)
      case "requests": sink &+= try measuredRequests(w, w.frames.indices, &engines)
      default: fatalError("--contender must be parse, pipeline, decode, cold or requests")
      }
      actions += engines.actions
    }
    print("frames \(w.frames.count) work \(sink) actions \(actions)")
  }

}
