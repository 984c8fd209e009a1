import Foundation
import VCProto

/// The realistic corpus: a deterministic mix of 0.2.0 (or 0.5.0) frames shaped like real traffic — many small
/// frames (pings, acks, command output lines, prompts), session lists, command trees, and large
/// `session_history` frames of raw Claude Code records (up to ~30 KB), with non-ASCII text, code
/// blocks and escapes.
struct Corpus {
  var frames: [[UInt8]]

  var bytes: Int { frames.reduce(0) { $0 + $1.count } }

  static func generate(count: Int, protocolVersion: String = "0.2.0", seed: UInt64 = 20_260_111) -> Corpus {
    var g = Generator(rng: SplitMix64(seed: seed), protocolVersion: protocolVersion)
    var frames: [[UInt8]] = []
    frames.reserveCapacity(count)
    for _ in 0..<count { frames.append(Array(g.frame().utf8)) }
    return Corpus(frames: frames)
  }

  /// The frames of at most `limit` bytes, or of at least `minimum` bytes.
  func filtered(_ keep: (Int) -> Bool) -> Corpus { Corpus(frames: frames.filter { keep($0.count) }) }
}

struct Generator {
  var rng: SplitMix64
  /// "0.5.0" gives the 0.5.0 shapes of the types that changed (session_history of canonical messages
  /// with offsets, subscribe with from_offset, provider members, connected); anything else gives 0.2.0.
  var protocolVersion = "0.2.0"
  var v5: Bool { protocolVersion == "0.5.0" }
  static let providers = ["claude", "claude", "claude", "copilot", "cursor"]

  static let words = [
    "the", "test", "fails", "because", "reconnect", "backoff", "jitter", "session", "history", "parser",
    "validator", "WebSocket", "frame", "client", "server", "résumé", "naïve", "café", "日本語", "テスト",
    "😀", "🚀", "Ünïcödé", "déjà", "über", "função", "ошибка", "错误", "build", "swift", "clojure", "async",
  ]
  static let code = [
    "let x = try decoder.decode(frame)", "if case .error(let e) = result { print(\"failed: \\(e)\") }",
    "(defn handle [msg] (case (:type msg) \"ping\" (send! {:type \"pong\"})))",
    "func test() { XCTAssertEqual(a, \"b\\\\c\") }", "path = \"C:\\\\Users\\\\dev\"\tcount += 1",
  ]

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
  mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

  mutating func uuid() -> String {
    let hex = Array("0123456789abcdef")
    var s = ""
    for i in 0..<32 {
      if i == 8 || i == 12 || i == 16 || i == 20 { s.append("-") }
      s.append(hex[int(0...15)])
    }
    return s
  }

  mutating func text(_ words: Int, nonASCII: Bool) -> String {
    var out: [String] = []
    for _ in 0..<words {
      var w = Self.words[int(0...(nonASCII ? Self.words.count - 1 : 14))]
      if w.unicodeScalars.contains(where: { !$0.isASCII }) && !nonASCII { w = "ascii" }
      out.append(w)
    }
    return out.joined(separator: " ")
  }

  mutating func prose(_ words: Int) -> String {
    var s = text(words, nonASCII: chance(0.3))
    if chance(0.5) { s += "\n```swift\n" + Self.code[int(0...Self.code.count - 1)] + "\n```\n" }
    return s
  }

  func json(_ value: JSONValue) -> String { value.jsonText }

  mutating func timestamp() -> String {
    String(
      format: "2026-01-%02dT%02d:%02d:%02d.%03dZ", int(1...28), int(0...23), int(0...59), int(0...59), int(0...999))
  }

  mutating func record(_ session: String, parent: String?) -> JSONValue {
    let user = chance(0.4)
    var content: JSONValue
    if user {
      content = .string(prose(int(5...40)))
    } else {
      var blocks: [JSONValue] = [["type": "text", "text": .string(prose(int(20...160)))]]
      if chance(0.4) {
        blocks.append([
          "type": "tool_use", "id": .string("toolu_" + String(int(1000...9999))), "name": "Bash",
          "input": ["command": .string(Self.code[int(0...Self.code.count - 1)])],
        ])
      }
      content = .array(blocks)
    }
    return [
      "type": .string(user ? "user" : "assistant"), "uuid": .string(uuid()),
      "parentUuid": parent.map { .string($0) } ?? .null, "timestamp": .string(timestamp()),
      "sessionId": .string(session), "cwd": "/Users/dev/voice-code", "isSidechain": false,
      "message": ["role": .string(user ? "user" : "assistant"), "content": content],
    ]
  }

  mutating func history(records: Int) -> String {
    let session = uuid()
    var items: [JSONValue] = []
    var parent: String? = nil
    for _ in 0..<records {
      let r = record(session, parent: parent)
      parent = r["uuid"]?.stringValue
      items.append(r)
    }
    let ids = items.compactMap { $0["uuid"]?.stringValue }
    return json([
      "type": "session_history", "session_id": .string(session), "messages": .array(items),
      "total_count": .number(JSONNumber(records)), "oldest_message_id": ids.first.map { .string($0) } ?? .null,
      "newest_message_id": ids.last.map { .string($0) } ?? .null, "is_complete": true,
    ])
  }

  mutating func provider() -> String { Self.providers[int(0...Self.providers.count - 1)] }

  /// A 0.5.0 `session_history`: canonical messages {uuid, role, text, timestamp, provider, session_id,
  /// offset} with increasing raw-line offsets, then the cursor (next_offset, end_of_file, file_signature).
  mutating func history5(messages: Int) -> String {
    let session = uuid()
    let provider = provider()
    var offset = int(0...5000)
    var items: [JSONValue] = []
    for _ in 0..<messages {
      let user = chance(0.4)
      offset += int(1...6)
      items.append([
        "uuid": .string(uuid()), "role": .string(user ? "user" : "assistant"),
        "text": .string(user ? prose(int(5...40)) : prose(int(20...160))),
        "timestamp": chance(0.05) ? .null : .string(timestamp()), "provider": .string(provider),
        "session_id": .string(session), "offset": .number(JSONNumber(offset)),
      ])
    }
    return json([
      "type": "session_history", "session_id": .string(session), "messages": .array(items),
      "next_offset": .number(JSONNumber(offset + 1)), "end_of_file": .bool(chance(0.8)),
      "file_signature": .string("\(int(1000...900_000)):" + uuid()),
    ])
  }

  mutating func commandNode(depth: Int) -> JSONValue {
    if depth < 2 && chance(0.25) {
      return [
        "id": .string("group\(int(1...99))"), "label": "Group", "type": "group",
        "children": .array((0..<int(1...4)).map { _ in commandNode(depth: depth + 1) }),
      ]
    }
    return [
      "id": .string("make.target\(int(1...99))"), "label": .string("Target"), "type": "command",
      "description": .string(text(6, nonASCII: false)),
    ]
  }

  mutating func frame() -> String {
    let roll = int(0...99)
    let cmd = "cmd-" + uuid()
    switch roll {
    case 0..<2 where v5:
      return json([
        "type": "connected", "message": "Session registered", "session_id": chance(0.7) ? .null : .string(uuid()),
        "negotiated_protocol_version": "0.5.0",
      ])
    case 0..<6: return chance(0.5) ? #"{"type":"ping"}"# : #"{"type":"pong"}"#
    case 6..<12: return #"{"type":"ack","message":"Processing prompt..."}"#
    case 12..<30:
      return json([
        "type": "command_output", "command_session_id": .string(cmd),
        "stream": .string(chance(0.8) ? "stdout" : "stderr"), "text": .string(text(int(3...25), nonASCII: chance(0.3))),
      ])
    case 30..<36: return json(["type": "turn_complete", "session_id": .string(uuid())])
    case 36..<42 where v5:
      return json([
        "type": "subscribe", "session_id": .string(uuid()), "from_offset": .number(JSONNumber(int(0...20_000))),
        "file_signature_seen": .string("\(int(1000...900_000)):" + uuid()),
      ])
    case 36..<42: return json(["type": "subscribe", "session_id": .string(uuid()), "last_message_id": .string(uuid())])
    case 42..<52:
      return json(
        ([
          "type": "prompt", "text": .string(prose(int(5...60))), "resume_session_id": .string(uuid()),
          "working_directory": "/Users/dev/voice-code", "provider": v5 ? .string(provider()) : .null,
        ] as JSONValue).withoutNulls)
    case 52..<60:
      return json([
        "type": "recent_sessions",
        "sessions": .array(
          (0..<int(1...8)).map { _ in
            ([
              "session_id": .string(uuid()), "name": .string(text(int(2...6), nonASCII: chance(0.3))),
              "working_directory": "/Users/dev/voice-code", "last_modified": .string(timestamp()),
              "provider": v5 ? .string(provider()) : .null,
            ] as JSONValue).withoutNulls
          }), "limit": 10,
      ])
    case 60..<66:
      let n = int(3...25)
      return json([
        "type": "session_list",
        "sessions": .array(
          (0..<n).map { _ in
            ([
              "session_id": .string(uuid()), "name": .string(text(int(2...6), nonASCII: chance(0.3))),
              "working_directory": "/Users/dev/voice-code",
              "last_modified": .number(JSONNumber(int(1_760_000_000_000...1_770_000_000_000))),
              "message_count": .number(JSONNumber(int(0...400))), "provider": v5 ? .string(provider()) : .null,
            ] as JSONValue).withoutNulls
          }), "total_count": .number(JSONNumber(n)),
      ])
    case 66..<70:
      return json([
        "type": "available_commands", "working_directory": chance(0.5) ? .null : "/Users/dev/voice-code",
        "project_commands": .array((0..<int(0...8)).map { _ in commandNode(depth: 0) }),
        "general_commands": .array((0..<5).map { _ in commandNode(depth: 2) }),
      ])
    case 70..<74:
      return json([
        "type": "command_output_full", "command_session_id": .string(cmd),
        "output": .string(
          (0..<int(5...120)).map { _ in text(int(4...14), nonASCII: chance(0.2)) }.joined(separator: "\n")),
        "exit_code": chance(0.2) ? .null : .number(JSONNumber(int(0...2))), "timestamp": .string(timestamp()),
        "duration_ms": chance(0.2) ? .null : .number(JSONNumber(int(5...90_000))), "command_id": "make.test",
        "shell_command": "make test", "working_directory": "/Users/dev/voice-code",
      ])
    case 74..<90: return v5 ? history5(messages: int(1...4)) : history(records: int(1...4))
    default: return v5 ? history5(messages: int(12...48)) : history(records: int(12...48))
    }
  }
}

extension JSONValue {
  /// This object without its `null` members (members keep their order); other values unchanged. Used
  /// for members that exist only in 0.5.0 (`provider`), so the 0.2.0 corpus stays byte for byte the same.
  var withoutNulls: JSONValue {
    guard case .object(let object) = self else { return self }
    return .object(JSONObject(object.members.filter { $0.value != .null }))
  }
}
