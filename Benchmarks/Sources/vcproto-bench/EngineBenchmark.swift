import Foundation
import VCProto

/// `vcproto-bench engine [--frames N] [--repetitions R] [--smoke]`: the connection engines' cost per
/// frame against decoding alone, on the benchmark corpus. Server-to-client frames go to a client
/// engine (ready, 0.2.0, every session of the corpus subscribed so `session_history` frames take the
/// dedup path), client-to-server frames to an authenticated server engine. Contenders, interleaved,
/// fastest of R rounds of thread CPU time:
///
/// - parse: the frames into `JSONValue` (what a host does before feeding the engine);
/// - decode: `MessageDecoder` into typed messages (the decoding the target is stated against);
/// - engine: the engines on the already parsed frames (built afresh before each round's clock starts;
///   actions appended to one reused buffer with `handle(_:now:into:)`).
///
/// The ratio reported is engine / parse and engine / decode: the cost the engine adds on top of
/// decoding (target under 10 %).
enum EngineBenchmark {
  static func cpu() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }

  static func obj(_ value: JSONValue) -> JSONObject { value.objectValue! }

  static let key = "untethered-0123456789abcdef0123456789abcdef"

  static func readyClient(sessions: [String]) throws -> ClientEngine {
    var engine = ClientEngine(
      ClientConfiguration(
        apiKey: key, maximumVersion: ProtocolVersion("0.2.0")!, maxPendingRequests: 256, maxSubscriptions: 100_000))
    for id in sessions { _ = try engine.handle(.subscribe(sessionId: id, cursor: nil), now: 0) }
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(clientNonce: "00"), now: 0)
    _ = try engine.handle(.frameReceived(obj(["type": "hello", "version": "0.2.0", "auth_version": 1])), now: 0)
    _ = try engine.handle(.frameReceived(obj(["type": "pong"])), now: 0)
    _ = try engine.handle(.frameReceived(obj(["type": "session_list", "sessions": [], "total_count": 0])), now: 0)
    precondition(engine.state == .ready, "client engine not ready")
    return engine
  }

  static func readyServer() throws -> ServerEngine {
    var engine = ServerEngine(ServerConfiguration(offer: .legacy, apiKey: key, maxSubscriptions: 100_000))
    _ = try engine.handle(.transportOpened(challenge: nil), now: 0)
    _ = try engine.handle(.frameReceived(obj(["type": "connect", "api_key": .string(key)])), now: 0)
    precondition(engine.state == .authenticated, "server engine not authenticated")
    return engine
  }

  static func run(count: Int, repetitions: Int, smoke: Bool) throws {
    let frames = Corpus.generate(count: count).frames
    let reader = JSONReader(limits: .default)
    let parsed = try frames.map { bytes -> JSONObject in
      guard case .object(let o) = try reader.parse(bytes) else { fatalError("not an object") }
      return o
    }
    let catalog = ProtocolCatalog.latest
    var toClient: [JSONObject] = []
    var toServer: [JSONObject] = []
    var sessions = Set<String>()
    for o in parsed {
      let type = o["type"]?.stringValue ?? ""
      if catalog.message(type)?.direction == .clientToServer { toServer.append(o) } else { toClient.append(o) }
      if let id = o["session_id"]?.stringValue { sessions.insert(id) }
    }
    // The same comparison split: session_history frames (where the client engine deduplicates every
    // message) and all other frames.
    let isHistory = parsed.map { $0["type"]?.stringValue == "session_history" }
    let towardServer = parsed.map { catalog.message($0["type"]?.stringValue ?? "")?.direction == .clientToServer }
    let historyFrames = frames.indices.filter { isHistory[$0] }.map { frames[$0] }
    let otherFrames = frames.indices.filter { !isHistory[$0] }.map { frames[$0] }
    let historyParsed = toClient.filter { $0["type"]?.stringValue == "session_history" }
    let otherToClient = toClient.filter { $0["type"]?.stringValue != "session_history" }
    // Every engine contender starts each round from freshly built engines (made before its clock
    // starts), so no round pays for copying the previous round's engine, and the engines append their
    // actions to one reused buffer (`handle(_:now:into:)`), as a host that cares about cost does.
    let sessionIds = sessions.sorted()
    var c = try readyClient(sessions: sessionIds)
    var s = try readyServer()
    var clientActions: [ClientAction] = []
    var serverActions: [ServerAction] = []
    clientActions.reserveCapacity(64)
    serverActions.reserveCapacity(64)
    let decoder = MessageDecoder()
    var delivered = 0
    var actionsOut = 0
    func client(_ o: JSONObject) throws {
      try c.handle(.frameReceived(o), now: 1, into: &clientActions)
      actionsOut += clientActions.count
      clientActions.removeAll(keepingCapacity: true)
    }
    func server(_ o: JSONObject) throws {
      try s.handle(.frameReceived(o), now: 1, into: &serverActions)
      actionsOut += serverActions.count
      serverActions.removeAll(keepingCapacity: true)
    }
    func client(_ frames: [JSONObject]) throws { for o in frames { try client(o) } }
    func server(_ frames: [JSONObject]) throws { for o in frames { try server(o) } }
    let contenders: [() throws -> Void] = [
      { for f in frames { _ = try reader.parse(f) } },
      { for f in frames { _ = try decoder.decode(f) } },
      {
        try client(toClient)
        try server(toServer)
        delivered += 1
      },
      { for f in historyFrames { _ = try decoder.decode(f) } },
      { try client(historyParsed) },
      { for f in otherFrames { _ = try decoder.decode(f) } },
      {
        try client(otherToClient)
        try server(toServer)
      },
      // A host's pipeline: each frame parsed and handed to its engine at once (the frame is still in
      // the cache). Its cost minus the parse-only contender's is what the engines add to a host that
      // parses; the contenders above feed frames parsed long before (67 MB earlier: cache-cold).
      { for f in historyFrames { _ = try reader.parse(f) } },
      {
        for f in historyFrames {
          guard case .object(let o) = try reader.parse(f) else { continue }
          try client(o)
        }
      },
      {
        for (i, f) in frames.enumerated() {
          guard case .object(let o) = try reader.parse(f) else { continue }
          if towardServer[i] { try server(o) } else { try client(o) }
        }
      },
    ]
    let usesEngines: Set<Int> = [2, 4, 6, 8, 9]
    var best = [Double](repeating: .infinity, count: contenders.count)
    for _ in 0..<repetitions {
      for (i, body) in contenders.enumerated() {
        if usesEngines.contains(i) {
          c = try readyClient(sessions: sessionIds)
          s = try readyServer()
        }
        let start = cpu()
        try body()
        best[i] = min(best[i], cpu() - start)
      }
    }
    let bytes = frames.reduce(0) { $0 + $1.count }
    let perFrame = best.map { $0 / Double(frames.count) * 1e9 }
    print(
      "\n## connection engines, \(frames.count) frames (\(toClient.count) to a client engine, \(toServer.count) to a server engine), \(bytes) bytes"
    )
    print("CPU time, fastest of \(repetitions) interleaved rounds")
    print(
      String(format: "parse (JSONReader)        %8.0f ns/frame  %7.1f MB/s", perFrame[0], Double(bytes) / best[0] / 1e6)
    )
    print(
      String(format: "decode (MessageDecoder)   %8.0f ns/frame  %7.1f MB/s", perFrame[1], Double(bytes) / best[1] / 1e6)
    )
    print(String(format: "engines (frames parsed beforehand, cache-cold) %8.0f ns/frame", perFrame[2]))
    print(
      String(
        format: "engine cost on top of parse: %.1f %%; on top of decode: %.1f %% (target < 10 %%)",
        best[2] / best[0] * 100, best[2] / best[1] * 100))
    print(
      String(
        format: "session_history frames (%d): engine %.0f ns/frame, %.1f %% of their decode; other frames (%d): "
          + "engines %.0f ns/frame, %.1f %% of their decode",
        historyFrames.count, best[4] / Double(max(1, historyFrames.count)) * 1e9, best[4] / best[3] * 100,
        otherFrames.count, best[6] / Double(max(1, otherFrames.count)) * 1e9, best[6] / best[5] * 100))
    let warm = best[9] - best[0]
    let warmHistory = best[8] - best[7]
    print(
      String(
        format: "pipeline (parse, then engine, frame still in cache): parse+engines %.0f ns/frame; engines %.0f "
          + "ns/frame = %.1f %% of parse, %.1f %% of decode (target < 10 %%)",
        perFrame[9], warm / Double(frames.count) * 1e9, warm / best[0] * 100, warm / best[1] * 100))
    print(
      String(
        format: "pipeline, session_history frames: engine %.0f ns/frame, %.1f %% of their decode",
        warmHistory / Double(max(1, historyFrames.count)) * 1e9, warmHistory / best[3] * 100))
    precondition(actionsOut >= toClient.count, "the client engine delivered fewer events than frames")
    if smoke { print("\nsmoke: engine 1 passed, 0 failed") }
  }
}
