import Foundation
import VCProto

/// `vcproto-bench engine [--protocol 0.2.0|0.5.0] [--frames N] [--repetitions R]
/// [--workload steady|first-contact|many-open|all-subscribed|all] [--processes K] [--smoke]`: the connection engines' cost per
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
/// One measurement against `MessageDecoder` alone on the same bytes (the decoding the target is stated
/// against): **bytes -> engine -> typed event**. Each frame's bytes go to its engine as the WebSocket
/// text message it arrived as (`.received(.text(bytes))`), the application's requests before it
/// (``Kind/firstContact``, ``Kind/manyOpen``) included; the engine decodes the frame once itself and
/// acts on the typed message. The other contender decodes the same bytes with a `MessageDecoder` of the
/// same version (and makes the same request strings, ``Requests``, so that making them is not counted
/// as the engines' work). The corpus is cut into blocks of ``blockFrames`` frames; in every block the
/// two contenders run one after the other, their order alternating from block to block, each block
/// timed on its own. A round sums the blocks, so each round gives both totals measured within
/// milliseconds of one another: the load of the machine moves both together and cancels out of the
/// ratio.
///
/// Every ratio is computed per round. Each workload is measured in K (5) processes of their own
/// (``MeasuringProcess``): the figure depends on the memory layout a process gets, so one process
/// measures one layout. The report gives, for each part of the workload, the median over the
/// processes of each process's median round, with the range of the process medians and of all
/// rounds; `--processes 1` measures in this process and reports the median over the rounds, the
/// lowest and highest, and the ratio of the fastest rounds. Times are thread CPU time.
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
    /// workload's copy of the id. Both contenders (engines and decode) make them, so making them
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
  struct Engines: ~Copyable {
    var client: ClientEngine
    var server: ServerEngine
    var clientActions: ClientActions
    var serverActions: ServerActions
    /// Actions the engines produced (checked, so that no work can be optimised away).
    var actions = 0

    init(_ w: Workload) throws {
      let client = try readyClient(sessions: w.sessions, version: w.version)
      let server = try readyServer(version: w.version)
      self.client = client
      self.server = server
      serverActions = ServerActions(capacity: 64)
      clientActions = ClientActions(capacity: 64)
    }

    /// What the application does before a frame (``Kind/firstContact``, ``Kind/manyOpen``):
    /// unsubscribe, subscribe (``Requests``).
    @inline(__always)
    mutating func prepare(_ requests: Requests) throws {
      if let id = requests.close { try client.handle(.unsubscribe(sessionId: id), now: 1, into: &clientActions) }
      if let id = requests.open {
        try client.handle(.subscribe(sessionId: id, cursor: nil), now: 1, into: &clientActions)
      }
      drainClientActions()
    }

    /// Takes each of the client engine's actions, as a host does to perform it, and counts it.
    @inline(__always)
    mutating func drainClientActions() {
      clientActions.drain { _ in actions += 1 }
    }

    /// Hands one received frame to its engine, as a host does: the bytes of the WebSocket text message.
    @inline(__always)
    mutating func feed(_ frame: [UInt8], towardServer: Bool) throws {
      if towardServer {
        try server.handle(.received(.text(frame)), now: 1, into: &serverActions)
        serverActions.drain { _ in actions += 1 }
      } else {
        try client.handle(.received(.text(frame)), now: 1, into: &clientActions)
        drainClientActions()
      }
    }
  }

  // MARK: contenders (each a function of its own, so that callgrind can count exactly its work)

  @inline(never)
  static func measuredEngines(_ w: Workload, _ range: Range<Int>, _ e: inout Engines) throws -> Int {
    for i in range {
      try e.prepare(Requests(w, i))
      try e.feed(w.frames[i], towardServer: w.towardServer[i])
    }
    return e.actions
  }

  @inline(never)
  static func measuredDecode(_ w: Workload, _ range: Range<Int>, _ decoder: MessageDecoder) throws -> Int {
    var decoded = 0
    for i in range {
      _ = try decoder.decode(w.frames[i])
      // The application's request strings, made as in the engines' contender (``Requests``).
      decoded += 1 + Requests(w, i).bytes
    }
    return decoded
  }

  /// Checks that the engines hand on what the decoder decodes and report no violation: every client
  /// frame is delivered (received, answered or in a session update), every server frame as a request.
  static func check(_ w: Workload) throws {
    var e = try Engines(w)
    let decoder = MessageDecoder(options: ValidationOptions(version: ProtocolVersion(rawValue: w.version)!))
    for i in w.frames.indices {
      try e.prepare(Requests(w, i))
      let decoded = try decoder.decode(w.frames[i])
      if w.towardServer[i] {
        let actions = try e.server.handle(.received(.text(w.frames[i])), now: 1)
        for case .deliver(.violation(let v)) in actions { fatalError("server engine: \(v)") }
        for case .deliver(.request(let m)) in actions where AnyMessage.client(m) != decoded {
          fatalError("the server engine handed on \(m), the decoder gave \(decoded)")
        }
      } else {
        let actions = try e.client.handle(.received(.text(w.frames[i])), now: 1)
        for action in actions {
          switch action {
          case .deliver(.violation(let v)):
            fatalError("client engine: \(v) on \(String(decoding: w.frames[i], as: UTF8.self))")
          case .deliver(.received(let m)), .deliver(.answered(_, let m)):
            if AnyMessage.server(m) != decoded {
              fatalError("the client engine delivered \(m), the decoder gave \(decoded)")
            }
          default: break
          }
        }
      }
    }
    precondition(e.client.state == .ready && e.server.state == .authenticated, "an engine closed")
  }

  /// Per-round figures of one workload: seconds per contender in each round.
  struct Rounds {
    var engines: [Double] = []
    var decode: [Double] = []
  }

  /// One round on `w`: the block-interleaved engines and decode (fresh engines, built before any clock
  /// starts).
  static func oneRound(_ w: Workload, number: Int, into r: inout Rounds) throws {
    let decoder = MessageDecoder(options: ValidationOptions(version: ProtocolVersion(rawValue: w.version)!))
    var engines = try Engines(w)
    var totals = [0.0, 0.0]
    var sink = 0
    var block = 0
    var start = 0
    while start < w.frames.count {
      let range = start..<min(w.frames.count, start + blockFrames)
      for step in 0..<2 {
        let contender = (step + block + number) % 2
        let t0 = cpu()
        switch contender {
        case 0: sink &+= try measuredEngines(w, range, &engines)
        default: sink &+= try measuredDecode(w, range, decoder)
        }
        totals[contender] += cpu() - t0
      }
      block += 1
      start = range.upperBound
    }
    precondition(sink != 0 && engines.actions >= w.frames.count / 2, "the contenders did no work")
    r.engines.append(totals[0])
    r.decode.append(totals[1])
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
    let over = zip(r.engines, r.decode).map { $0 / $1 - 1 }
    let fastest = (r.engines.min() ?? 0) / (r.decode.min() ?? 1) - 1
    print("\n\(name): \(w.frames.count) frames, \(w.bytes) bytes (median of \(r.decode.count) rounds, ns/frame)")
    print(
      String(
        format: "  decode %.0f, bytes -> engine -> typed event %.0f", median(r.decode) / n * 1e9,
        median(r.engines) / n * 1e9))
    print("  engines over decoding: " + spread(over, fastest: fastest) + "   (target < 10 %)")
  }

  /// Every workload of `kinds`, checked, then measured: in this process (`processes` 1), or in
  /// `processes` processes of their own (``MeasuringProcess``: one process measures one memory
  /// layout), reported as the median over them. `child`: a measuring process, which prints its
  /// figures as ``ProcessFigures`` lines.
  static func run(
    count: Int, version: String, kinds: [Kind], repetitions: Int, processes: Int = 1, child: Bool = false,
    smoke: Bool
  ) throws {
    for kind in kinds {
      if child {
        for (i, (_, w, r)) in try measure(count: count, version: version, kind: kind, repetitions: repetitions)
          .enumerated()
        {
          print(ProcessFigures(part: i, decode: r.decode, engines: r.engines, frames: w.frames.count).line)
        }
        continue
      }
      let (all, _) = try workload(count: count, version: version, kind: kind)
      try check(all)
      if smoke { continue }
      if processes > 1 {
        try run(all, count: count, kind: kind, repetitions: repetitions, processes: processes)
      } else {
        heading(all, kind: kind, repetitions: repetitions, processes: 1)
        for (name, w, r) in try measure(count: count, version: version, kind: kind, repetitions: repetitions) {
          report(name, w, r)
        }
      }
    }
    if smoke {
      print("smoke: every frame handed on as the decoder decodes it, no violation (\(kinds.count) workloads)")
    }
  }

  /// The three parts of a workload the report gives, by name.
  static let subsetNames = ["whole corpus", "session_history frames", "all other frames"]

  /// `repetitions` rounds of workload `kind`, each round measuring the whole corpus, its
  /// `session_history` frames and its other frames (``subsetNames``).
  static func measure(count: Int, version: String, kind: Kind, repetitions: Int) throws
    -> [(String, Workload, Rounds)]
  {
    let (all, isHistory) = try workload(count: count, version: version, kind: kind)
    let workloads = [all, all.subset { isHistory[$0] }, all.subset { !isHistory[$0] }]
    var rounds = [Rounds](repeating: Rounds(), count: workloads.count)
    for number in 0..<repetitions {
      for (i, w) in workloads.enumerated() { try oneRound(w, number: number, into: &rounds[i]) }
    }
    return workloads.indices.map { (subsetNames[$0], workloads[$0], rounds[$0]) }
  }

  static func heading(_ all: Workload, kind: Kind, repetitions: Int, processes: Int) {
    print(
      "\n## connection engines, protocol \(all.version), \(kind.rawValue) workload (\(all.sessions.count) sessions "
        + "subscribed), \(all.frames.count) frames (\(all.towardServer.filter { !$0 }.count) to a client "
        + "engine, \(all.towardServer.filter { $0 }.count) to a server engine), \(all.bytes) bytes")
    print(
      "thread CPU time; bytes -> engine -> typed event and decode interleaved in blocks of \(blockFrames) "
        + "frames; \(repetitions) rounds"
        + (processes > 1 ? " in each of \(processes) processes (the median over the processes)" : ""))
  }

  /// Workload `kind` measured in `processes` processes of their own; each part reported as the
  /// median over the processes of each process's median round.
  static func run(_ all: Workload, count: Int, kind: Kind, repetitions: Int, processes: Int) throws {
    heading(all, kind: kind, repetitions: repetitions, processes: processes)
    var figures = [[ProcessFigures]](repeating: [], count: subsetNames.count)
    for _ in 0..<processes {
      let lines = try MeasuringProcess.figures(
        [
          "engine", "--protocol", all.version, "--frames", "\(count)", "--repetitions", "\(repetitions)",
          "--workload", kind.rawValue, "--processes", "1", "--child",
        ], parts: subsetNames.count)
      for f in lines { figures[f.part].append(f) }
    }
    for (i, name) in subsetNames.enumerated() {
      let f = figures[i]
      let medians = f.map(\.median)
      print("\n\(name): median of \(processes) processes, ns/frame")
      print(
        String(
          format: "  decode %.0f, bytes -> engine -> typed event %.0f", median(f.map(\.decodeNs)),
          median(f.map(\.engineNs))))
      print(
        String(
          format: "  engines over decoding: %5.1f %% (processes %.1f-%.1f %%; rounds %.1f-%.1f %%)   (target < 10 %%)",
          median(medians) * 100, (medians.min() ?? 0) * 100, (medians.max() ?? 0) * 100,
          (f.map(\.lowest).min() ?? 0) * 100, (f.map(\.highest).max() ?? 0) * 100))
    }
  }

  /// `vcproto-bench engine-profile --contender engines|decode [--protocol V] [--frames N]
  /// [--only history|other] [--workload steady|first-contact|many-open|all-subscribed] [--passes P]`:
  /// one contender over the workload (P times, 1 by default: more gives a sampling profiler enough
  /// samples), for `valgrind --tool=callgrind --toggle-collect='*measured*'`
  /// (`Benchmarks/instructions.sh --engine`): only the contender's own work is counted, not the corpus
  /// or the engines' setup.
  static func profile(count: Int, version: String, kind: Kind, contender: String, only: String?, passes: Int) throws {
    let (all, isHistory) = try workload(count: count, version: version, kind: kind)
    let w: Workload
    switch only {
    case "history": w = all.subset { isHistory[$0] }
    case "other": w = all.subset { !isHistory[$0] }
    default: w = all
    }
    let decoder = MessageDecoder(options: ValidationOptions(version: ProtocolVersion(rawValue: version)!))
    var sink = 0
    var actions = 0
    // Each pass on fresh engines (built outside the counted functions), so every pass does the same work.
    for _ in 0..<max(1, passes) {
      var engines = try Engines(w)
      switch contender {
      case "engines": sink &+= try measuredEngines(w, w.frames.indices, &engines)
      case "decode": sink &+= try measuredDecode(w, w.frames.indices, decoder)
      default: fatalError("--contender must be engines or decode")
      }
      actions += engines.actions
    }
    print("frames \(w.frames.count) work \(sink) actions \(actions)")
  }
}
