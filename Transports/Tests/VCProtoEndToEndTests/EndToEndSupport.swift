import Foundation
import TransportTestSupport
import VCProto
import VCProtoNIO

/// What the end-to-end tests share: the key, short timings, the connector, an event log, and the
/// few places that read the engine's event shapes.
enum EndToEnd {
  static let apiKey = PythonBackend.apiKey

  /// Timings short enough for the suite to run in seconds, long enough for a loaded 2-core machine:
  /// a ping every 2 s answered within 1.5 s, reconnects after 100-500 ms, 5 s for a handshake. (The
  /// pong deadline must be shorter than the ping period: each ping re-arms it, so a longer one
  /// would never pass.)
  static var timing: ClientTiming {
    var timing = ClientTiming()
    timing.pingIntervalMs = 2_000
    timing.pongTimeoutMs = 1_500
    timing.handshakeTimeoutMs = 5_000
    timing.backoffBaseMs = 100
    timing.backoffCapMs = 500
    timing.backoffFloorMs = 100
    timing.requestTimeoutMs = 20_000
    return timing
  }

  /// A client of `apiKey`: auth v1 allowed unless `capabilities` asks for authenticated frames.
  static func configuration(
    capabilities: [String] = [], maximumVersion: String = "0.5.0"
  ) -> ClientConfiguration {
    ClientConfiguration(
      apiKey: apiKey, maximumVersion: ProtocolVersion(rawValue: maximumVersion)!, capabilities: capabilities,
      allowAuthV1: !capabilities.contains(Capability.authenticatedFrames), timing: timing)
  }

  /// The NIO connector: a connect (and upgrade) bounded by 2 s, a close handshake by 1 s.
  static var connector: WebSocketClient {
    var limits = WebSocketLimits.default
    limits.connectTimeoutMilliseconds = 2_000
    limits.closeTimeoutMilliseconds = 1_000
    return WebSocketClient(limits: limits)
  }

  /// A fresh capture file and the capture writing it.
  static func capture() throws -> (URL, JSONLinesCapture) {
    let url = temporaryDirectory().appendingPathComponent("capture.jsonl")
    return (url, try JSONLinesCapture(url: url))
  }

  /// The type of a message received that the engine delivered as it came (`nil` for other events).
  static func receivedType(_ event: ClientApplicationEvent) -> String? {
    guard case .received(let message) = event else { return nil }
    return message.type
  }

  /// The texts of the messages a session update inserts.
  static func insertedTexts(_ event: ClientApplicationEvent) -> [String] {
    guard case .sessionUpdate(let update) = event else { return [] }
    switch update.insert {
    case .v0_3_0(let messages): return messages.map(\.text)
    case .v0_4_0(let messages): return messages.map(\.text)
    case .v0_5_0(let messages): return messages.map(\.text)
    default: return []
    }
  }

  /// Whether the event is a session update purging every message.
  static func purgesAll(_ event: ClientApplicationEvent) -> Bool {
    guard case .sessionUpdate(let update) = event, case .all? = update.purge else { return false }
    return true
  }

  /// A prompt continuing session `id`.
  static func prompt(_ text: String, session id: String) -> ClientMessage {
    .prompt(.v0_3_0(PromptMessageV0_3_0(text: text, resumeSessionId: id)))
  }

  /// Waits (at most `seconds`) until the capture at `url` holds a frame of `type` (inside an
  /// authenticated wrapper too).
  static func waitForFrame(_ type: String, in url: URL, seconds: Double = 10) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try !records(url).contains(where: { $0.type == type }) {
      guard Date() < deadline else { throw TestFailure("no \(type) in \(url.path) within \(seconds) s") }
      try await Task.sleep(nanoseconds: 50_000_000)
    }
  }

  /// The records of a capture: (connection, direction, the frame's type, the frame), an
  /// authenticated frame's inner frame in its place. A line not (yet) whole is left out.
  static func records(_ url: URL) throws -> [(connection: Int, direction: String, type: String, frame: JSONObject)] {
    let text = try String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      guard let record = try? JSONReader().parse(String(line)).objectValue,
        let data = record["data"]?.stringValue, var frame = try? JSONReader().parse(data).objectValue
      else { return nil }
      if frame["type"]?.stringValue == "authenticated", let inner = frame["frame"]?.stringValue,
        let opened = try? JSONReader().parse(inner).objectValue
      {
        frame = opened
      }
      return (
        record["connection"]?.intValue ?? 0, record["direction"]?.stringValue ?? "?",
        frame["type"]?.stringValue ?? "?", frame
      )
    }
  }
}

/// Every event a ``ClientHost`` delivered, collected as they come, with waits that end.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [ClientApplicationEvent] = []
  private var finishedFlag = false

  init(_ events: AsyncStream<ClientApplicationEvent>) {
    Task {
      for await event in events { self.lock.withLock { self.items.append(event) } }
      self.lock.withLock { self.finishedFlag = true }
    }
  }

  var all: [ClientApplicationEvent] { lock.withLock { items } }
  var finished: Bool { lock.withLock { finishedFlag } }
  var count: Int { lock.withLock { items.count } }

  /// Waits (at most `seconds`) for an event at `from` or later that `match` accepts; its index.
  @discardableResult
  func wait(
    from: Int = 0, seconds: Double = 20, _ what: String, _ match: (ClientApplicationEvent) -> Bool
  ) async throws -> Int {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let events = all
      if from < events.count, let index = events[from...].firstIndex(where: match) { return index }
      try await Task.sleep(nanoseconds: 10_000_000)
    }
    throw TestFailure("no \(what) within \(seconds) s after event \(from); events: \(all)")
  }

  /// Waits until the texts inserted from `from` on include every one of `texts`; the index of the
  /// event that completed them.
  @discardableResult
  func waitForTexts(from: Int = 0, seconds: Double = 20, _ texts: [String]) async throws -> Int {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let events = all
      var seen = Set<String>()
      for index in events.indices where index >= from {
        seen.formUnion(EndToEnd.insertedTexts(events[index]))
        if Set(texts).isSubset(of: seen) { return index }
      }
      try await Task.sleep(nanoseconds: 10_000_000)
    }
    throw TestFailure("texts \(texts) not all inserted within \(seconds) s after \(from); events: \(all)")
  }
}

extension ClientApplicationEvent {
  var isConnected: Bool { if case .connected = self { true } else { false } }
  var isDisconnected: Bool { if case .disconnected = self { true } else { false } }
  var isReconnectScheduled: Bool { if case .reconnectScheduled = self { true } else { false } }
}
