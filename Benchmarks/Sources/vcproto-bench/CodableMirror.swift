import Foundation

// The baseline a Swift developer would write without vcproto: Codable structs with explicit
// CodingKeys, dispatched on `type` in one pass by a custom init(from:).

struct CBOutput: Codable {
  var commandSessionId: String; var stream: String; var text: String
  enum CodingKeys: String, CodingKey { case commandSessionId = "command_session_id", stream, text }
}
struct CBAck: Codable { var message: String }
struct CBTurn: Codable {
  var sessionId: String?
  enum CodingKeys: String, CodingKey { case sessionId = "session_id" }
}
struct CBSubscribe: Codable {
  var sessionId: String; var lastMessageId: String?; var fromOffset: Int?; var fileSignatureSeen: String?
  enum CodingKeys: String, CodingKey {
    case sessionId = "session_id", lastMessageId = "last_message_id", fromOffset = "from_offset"
    case fileSignatureSeen = "file_signature_seen"
  }
}
struct CBPrompt: Codable {
  var text: String; var resumeSessionId: String?; var workingDirectory: String?; var provider: String?
  enum CodingKeys: String, CodingKey {
    case text, resumeSessionId = "resume_session_id", workingDirectory = "working_directory", provider
  }
}
struct CBRecent: Codable {
  var sessionId: String; var name: String; var workingDirectory: String; var lastModified: String; var provider: String?
  enum CodingKeys: String, CodingKey {
    case sessionId = "session_id", name, workingDirectory = "working_directory", lastModified = "last_modified",
      provider
  }
}
struct CBRecentSessions: Codable { var sessions: [CBRecent]; var limit: Int }
struct CBSummary: Codable {
  var sessionId: String; var name: String; var workingDirectory: String; var lastModified: Int; var messageCount: Int
  var provider: String?
  enum CodingKeys: String, CodingKey {
    case sessionId = "session_id", name, workingDirectory = "working_directory", lastModified = "last_modified"
    case messageCount = "message_count", provider
  }
}
struct CBSessionList: Codable {
  var sessions: [CBSummary]; var totalCount: Int
  enum CodingKeys: String, CodingKey { case sessions, totalCount = "total_count" }
}
final class CBNode: Codable {
  var id: String; var label: String; var type: String; var description: String?; var children: [CBNode]?
}
struct CBCommands: Codable {
  var workingDirectory: String?; var projectCommands: [CBNode]; var generalCommands: [CBNode]
  enum CodingKeys: String, CodingKey {
    case workingDirectory = "working_directory", projectCommands = "project_commands", generalCommands =
      "general_commands"
  }
}
struct CBOutputFull: Codable {
  var commandSessionId: String; var output: String; var exitCode: Int?; var timestamp: String; var durationMs: Int?
  var commandId: String; var shellCommand: String; var workingDirectory: String
  enum CodingKeys: String, CodingKey {
    case commandSessionId = "command_session_id", output, exitCode = "exit_code", timestamp, durationMs = "duration_ms"
    case commandId = "command_id", shellCommand = "shell_command", workingDirectory = "working_directory"
  }
}
struct CBInput: Codable { var command: String }
struct CBBlock: Codable { var type: String; var text: String?; var id: String?; var name: String?; var input: CBInput? }
enum CBContent: Codable {
  case text(String), blocks([CBBlock])
  init(from d: Decoder) throws {
    let c = try d.singleValueContainer()
    if let s = try? c.decode(String.self) { self = .text(s) } else { self = .blocks(try c.decode([CBBlock].self)) }
  }
  func encode(to e: Encoder) throws {
    var c = e.singleValueContainer()
    switch self {
    case .text(let s): try c.encode(s)
    case .blocks(let b): try c.encode(b)
    }
  }
}
struct CBMessage: Codable { var role: String; var content: CBContent }
struct CBRecord: Codable {
  var type: String; var uuid: String; var parentUuid: String?; var timestamp: String; var sessionId: String
  var cwd: String; var isSidechain: Bool; var message: CBMessage
}
struct CBHistory: Codable {
  var sessionId: String; var messages: [CBRecord]; var totalCount: Int; var oldestMessageId: String?
  var newestMessageId: String?; var isComplete: Bool
  enum CodingKeys: String, CodingKey {
    case sessionId = "session_id", messages, totalCount = "total_count", oldestMessageId = "oldest_message_id"
    case newestMessageId = "newest_message_id", isComplete = "is_complete"
  }
}
// 0.5.0 shapes.
struct CBConnected: Codable {
  var message: String; var sessionId: String?; var negotiatedProtocolVersion: String
  enum CodingKeys: String, CodingKey {
    case message, sessionId = "session_id", negotiatedProtocolVersion = "negotiated_protocol_version"
  }
}
struct CBCanonical: Codable {
  var uuid: String; var role: String; var text: String; var timestamp: String?; var provider: String
  var sessionId: String; var offset: Int
  enum CodingKeys: String, CodingKey { case uuid, role, text, timestamp, provider, sessionId = "session_id", offset }
}
struct CBHistory5: Codable {
  var sessionId: String; var messages: [CBCanonical]; var nextOffset: Int; var endOfFile: Bool;
  var fileSignature: String?
  enum CodingKeys: String, CodingKey {
    case sessionId = "session_id", messages, nextOffset = "next_offset", endOfFile = "end_of_file"
    case fileSignature = "file_signature"
  }
}

extension CodingUserInfoKey {
  /// The connection's protocol version ("0.5.0" decodes `session_history` in its 0.5.0 shape), as
  /// vcproto's decoder gets it from `ValidationOptions.protocolVersion`.
  static let protocolVersion = CodingUserInfoKey(rawValue: "protocolVersion")!
}

enum CBFrame: Codable {
  case ping, pong, ack(CBAck), output(CBOutput), turn(CBTurn), subscribe(CBSubscribe), prompt(CBPrompt)
  case recent(CBRecentSessions), list(CBSessionList), commands(CBCommands), full(CBOutputFull), history(CBHistory)
  case connected(CBConnected), history5(CBHistory5)
  enum TypeKey: String, CodingKey { case type }

  init(from d: Decoder) throws {
    let type = try d.container(keyedBy: TypeKey.self).decode(String.self, forKey: .type)
    switch type {
    case "ping": self = .ping
    case "pong": self = .pong
    case "ack": self = .ack(try CBAck(from: d))
    case "command_output": self = .output(try CBOutput(from: d))
    case "turn_complete": self = .turn(try CBTurn(from: d))
    case "subscribe": self = .subscribe(try CBSubscribe(from: d))
    case "prompt": self = .prompt(try CBPrompt(from: d))
    case "recent_sessions": self = .recent(try CBRecentSessions(from: d))
    case "session_list": self = .list(try CBSessionList(from: d))
    case "available_commands": self = .commands(try CBCommands(from: d))
    case "command_output_full": self = .full(try CBOutputFull(from: d))
    case "session_history" where d.userInfo[.protocolVersion] as? String == "0.5.0":
      self = .history5(try CBHistory5(from: d))
    case "session_history": self = .history(try CBHistory(from: d))
    case "connected": self = .connected(try CBConnected(from: d))
    default: throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unexpected type \(type)"))
    }
  }

  func encode(to e: Encoder) throws {
    var c = e.container(keyedBy: TypeKey.self)
    func put(_ t: String, _ v: some Encodable) throws {
      try c.encode(t, forKey: .type)
      try v.encode(to: e)
    }
    switch self {
    case .ping: try c.encode("ping", forKey: .type)
    case .pong: try c.encode("pong", forKey: .type)
    case .ack(let v): try put("ack", v)
    case .output(let v): try put("command_output", v)
    case .turn(let v): try put("turn_complete", v)
    case .subscribe(let v): try put("subscribe", v)
    case .prompt(let v): try put("prompt", v)
    case .recent(let v): try put("recent_sessions", v)
    case .list(let v): try put("session_list", v)
    case .commands(let v): try put("available_commands", v)
    case .full(let v): try put("command_output_full", v)
    case .history(let v): try put("session_history", v)
    case .history5(let v): try put("session_history", v)
    case .connected(let v): try put("connected", v)
    }
  }
}
