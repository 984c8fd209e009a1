import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// A server `error` that refuses a request ends that request, and only that one (STANDARDS.md#requests).
/// The refusal messages come from the catalogs in Reference/, not from the engine.
@Suite struct ClientEngineErrorTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"
  static let session = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"

  /// Refusals the engine must not attribute, with the reason: the real server can also send them
  /// after it answered the request (so they may belong to an earlier request of the same session).
  /// The catalog's notes say so for compaction; session-behaviour's new-session flow for dispatch
  /// failures (`SRV:2468-2497` at `1e7bcc30`: the tmux window starts in a future after the `ack`).
  static let sentAfterTheAnswer: Set<String> = [
    "Compaction in progress for this session; retry once it completes",
    "Failed to dispatch prompt: <exception>", "Failed to dispatch prompt: <msg>", "<Claude failure text>",
    "tmux dispatch failed: <msg>",
  ]

  /// `(request type, error message template, whether the error carries session_id)` for every `error`
  /// the catalogs list under a request type the engine tracks.
  static func catalogRefusals() throws -> [(type: String, template: String, withSession: Bool)] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    var found: [(String, String, Bool)] = []
    for version in ["0.2.0", "0.3.0", "0.4.0", "0.5.0"] {
      let url = root.appendingPathComponent("Reference/catalog-\(version).json")
      let catalog = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
      for case let message as [String: Any] in catalog?["messages"] as? [Any] ?? [] {
        guard let type = message["type"] as? String, ClientEngine.answerTypes[type] != nil else { continue }
        for case let error as [String: Any] in message["errors"] as? [Any] ?? []
        where error["type"] as? String == "error" {
          guard let template = error["message"] as? String else { continue }
          found.append((type, template, error["session_id"] != nil))
        }
      }
    }
    return found
  }

  /// `template` with every `<...>` placeholder replaced by `x`.
  static func filled(_ template: String) -> String {
    var out = ""
    var inside = false
    for c in template {
      if c == "<", !inside {
        inside = true
        out += "x"
      } else if c == ">", inside {
        inside = false
      } else if !inside {
        out.append(c)
      }
    }
    return out
  }

  static func readyEngine(_ configuration: ClientConfiguration? = nil) throws -> ClientEngine {
    var engine = ClientEngine(configuration ?? ClientConfiguration(apiKey: key, allowAuthV1: true))
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(.transportOpened(engine.currentTransport!, clientNonce: "00"), now: 0)
    _ = try engine.handle(
      .frameReceived(.frame("hello", ["message": "m", "instructions": "i", "version": "0.5.0", "auth_version": 1])),
      now: 0)
    _ = try engine.handle(
      .frameReceived(
        .frame("connected", ["message": "m", "session_id": .null, "negotiated_protocol_version": "0.5.0"])), now: 0)
    #expect(engine.state == .ready)
    return engine
  }

  static func request(_ type: String) -> JSONObject {
    type == "prompt"
      ? .frame("prompt", ["text": "x", "resume_session_id": .string(session)])
      : .frame(type, ["session_id": .string(session)])
  }

  @Test func everyCatalogRefusalEndsItsRequest() throws {
    let refusals = try Self.catalogRefusals()
    #expect(refusals.count > 30, "only \(refusals.count) refusals found in the catalogs")
    for (type, template, withSession) in refusals {
      var engine = try Self.readyEngine()
      _ = try engine.handle(.send(Self.request(type), requestId: "r1"), now: 1)
      var error = JSONObject.frame("error", ["message": .string(Self.filled(template))])
      if withSession { error["session_id"] = .string(Self.session) }
      let actions = try engine.handle(.frameReceived(error), now: 2)
      if Self.sentAfterTheAnswer.contains(template) {
        #expect(actions == [.deliver(.received(error))], "\(type): \(template) must not be attributed")
        #expect(engine.occupancy.pendingRequests == 1)
      } else {
        #expect(actions == [.deliver(.answered(requestId: "r1", frame: error))], "\(type): \(template)")
        #expect(engine.occupancy.pendingRequests == 0, "\(type): \(template)")
      }
    }
  }

  /// The refusals vcproto's catalog declares (``MessageSpec/refusals``, the engine's one source) are
  /// the real server's: each matches a message the Reference catalogs list under the same request
  /// type (placeholders filled), and the engine's table is exactly the declared one.
  @Test func declaredRefusalsComeFromTheReferenceCatalogs() throws {
    let reference = try Self.catalogRefusals()
    var declared: [String: [String]] = [:]
    for spec in ProtocolCatalog.declaration.messages where !spec.refusals.isEmpty {
      declared[spec.type, default: []] += spec.refusals
      for template in spec.refusals {
        let pattern = MessagePattern(template)
        #expect(
          reference.contains { $0.type == spec.type && pattern.matches(Array(Self.filled($0.template).utf8)) },
          "\(spec.type): \"\(template)\" is in no Reference catalog")
      }
    }
    #expect(declared.count >= 10)
    #expect(ErrorAttribution.refusals == declared)
  }

  /// A refusal of one type never ends a request of another type: every catalog refusal, sent while a
  /// request of every other tracked type waits, is delivered as received.
  @Test func aRefusalNeverEndsAnotherTypesRequest() throws {
    let refusals = try Self.catalogRefusals().filter { !Self.sentAfterTheAnswer.contains($0.template) }
    for (type, template, _) in refusals {
      var engine = try Self.readyEngine()
      for other in ClientEngine.answerTypes.keys.sorted() where other != type {
        _ = try engine.handle(.send(Self.request(other), requestId: other), now: 1)
      }
      let waiting = engine.occupancy.pendingRequests
      let error = JSONObject.frame("error", ["message": .string(Self.filled(template))])
      let actions = try engine.handle(.frameReceived(error), now: 2)
      #expect(actions == [.deliver(.received(error))], "\(type): \(template) ended another type's request")
      #expect(engine.occupancy.pendingRequests == waiting)
    }
  }

  @Test func refusalsEndRequestsOldestFirstAndAnswersStillMatch() throws {
    var engine = try Self.readyEngine()
    let exec = JSONObject.frame("execute_command", ["command_id": "git.status"])
    _ = try engine.handle(.send(exec, requestId: "r1"), now: 1)
    _ = try engine.handle(.send(exec, requestId: "r2"), now: 1)
    let refusal = JSONObject.frame("error", ["message": "working_directory required in execute_command message"])
    #expect(
      try engine.handle(.frameReceived(refusal), now: 2) == [.deliver(.answered(requestId: "r1", frame: refusal))])
    let started = JSONObject.frame(
      "command_started", ["command_session_id": "c-1", "command_id": "git.status", "shell_command": "git status"])
    #expect(
      try engine.handle(.frameReceived(started), now: 3) == [.deliver(.answered(requestId: "r2", frame: started))])
  }

  @Test func unknownTypeNamesTheRequestType() throws {
    var engine = try Self.readyEngine()
    _ = try engine.handle(.send(.frame("execute_command"), requestId: "r1"), now: 1)
    _ = try engine.handle(.send(.frame("list_resources"), requestId: "r2"), now: 1)
    let unknown = JSONObject.frame("error", ["message": "Unknown message type: list_resources"])
    #expect(
      try engine.handle(.frameReceived(unknown), now: 2) == [.deliver(.answered(requestId: "r2", frame: unknown))])
    let other = JSONObject.frame("error", ["message": "Unknown message type: get_command_output"])
    #expect(try engine.handle(.frameReceived(other), now: 2) == [.deliver(.received(other))])
    #expect(engine.occupancy.pendingRequests == 1)
  }

  @Test func unattributableErrorsEndNothingAndTheRequestStillFailsOnDrop() throws {
    var engine = try Self.readyEngine()
    _ = try engine.handle(.send(.frame("execute_command"), requestId: "r1"), now: 1)
    for error in [
      JSONObject.frame("error", ["message": "Error processing message: boom"]),
      JSONObject.frame("error", ["message": "Internal error: boom"]),
      JSONObject.frame(
        "error", ["code": "invalid_subscribe", "message": "command_id required in execute_command message"]),
    ] {
      #expect(try engine.handle(.frameReceived(error), now: 2) == [.deliver(.received(error))])
    }
    // An `error` without a string message fails validation: reported, never delivered, ends nothing.
    for error in [JSONObject.frame("error", ["message": .null]), JSONObject.frame("error")] {
      let actions = try engine.handle(.frameReceived(error), now: 2)
      guard case .deliver(.violation(let violation))? = actions.first, actions.count == 1 else {
        Issue.record("expected one violation, got \(actions)")
        continue
      }
      #expect(violation.messageType == "error" && violation.disposition == .dropped)
    }
    let actions = try engine.handle(.transportClosed(engine.currentTransport!, detail: "reset"), now: 3)
    #expect(actions.first == .deliver(.requestFailed(requestId: "r1", reason: .connectionLost)))
  }

  @Test func aRefusalNamingAnotherSessionIsNotAttributed() throws {
    var engine = try Self.readyEngine()
    _ = try engine.handle(.send(Self.request("prompt"), requestId: "r1"), now: 1)
    let message = "No AI CLI tools installed. Please install Claude Code or GitHub Copilot CLI."
    let elsewhere = JSONObject.frame("error", ["message": .string(message), "session_id": "another"])
    #expect(try engine.handle(.frameReceived(elsewhere), now: 2) == [.deliver(.received(elsewhere))])
    let here = JSONObject.frame("error", ["message": .string(message), "session_id": .string(Self.session)])
    #expect(try engine.handle(.frameReceived(here), now: 2) == [.deliver(.answered(requestId: "r1", frame: here))])
  }

  /// An `error` that names a session refuses only a request about that session (STANDARDS.md#requests):
  /// the real server echoes the request's session, so a request that named none is not
  /// what it refuses. Found by tools/crosscheck_sessions.py against the Python engine.
  @Test func aRefusalNamingASessionNeverEndsASessionlessRequest() throws {
    var engine = try Self.readyEngine()
    let request = JSONObject.frame("execute_command", ["command_id": "git.status", "working_directory": "/w"])
    _ = try engine.handle(.send(request, requestId: "r1"), now: 1)
    let named = JSONObject.frame(
      "error", ["message": "command_id required in execute_command message", "session_id": .string(Self.session)])
    #expect(try engine.handle(.frameReceived(named), now: 2) == [.deliver(.received(named))])
    #expect(engine.occupancy.pendingRequests == 1)
    let unnamed = JSONObject.frame("error", ["message": "command_id required in execute_command message"])
    #expect(
      try engine.handle(.frameReceived(unnamed), now: 3) == [.deliver(.answered(requestId: "r1", frame: unnamed))])
  }

  /// The engine's own `set_max_message_size` takes its place in the answer order: its `ack` does not
  /// answer a `prompt` sent right after it (both are answered by `ack`).
  @Test func theEnginesOwnRequestKeepsItsPlace() throws {
    var engine = try Self.readyEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true, maxMessageSizeKB: 200))
    _ = try engine.handle(.send(Self.request("prompt"), requestId: "r1"), now: 1)
    let sizeAck = JSONObject.frame("ack", ["message": "Max message size set to 200 KB"])
    #expect(try engine.handle(.frameReceived(sizeAck), now: 2) == [.deliver(.received(sizeAck))])
    let promptAck = JSONObject.frame("ack", ["message": "Processing prompt..."])
    #expect(
      try engine.handle(.frameReceived(promptAck), now: 2) == [.deliver(.answered(requestId: "r1", frame: promptAck))])
  }

  @Test func untrackedRequestsAreBoundedAndNeverDisplaceTrackedOnes() throws {
    var engine = try Self.readyEngine(ClientConfiguration(apiKey: Self.key, allowAuthV1: true, maxPendingRequests: 4))
    for _ in 0..<10 { _ = try engine.handle(.send(.frame("execute_command"), requestId: nil), now: 1) }
    #expect(engine.occupancy.pendingRequests == 4)
    for id in ["r1", "r2", "r3", "r4"] {
      #expect(try engine.handle(.send(.frame("execute_command"), requestId: id), now: 1).count == 1)
    }
    let refused = try engine.handle(.send(.frame("execute_command"), requestId: "r5"), now: 1)
    #expect(refused == [.deliver(.requestFailed(requestId: "r5", reason: .tooManyPending))])
    _ = try engine.handle(.send(.frame("execute_command"), requestId: nil), now: 1)
    #expect(engine.occupancy.pendingRequests == 4)
  }

  @Test func messagePatternsMatchTheirPlaceholders() {
    let pattern = MessagePattern(
      "<provider> CLI not installed. Please install the <cli> CLI to use <provider> sessions.")
    #expect(
      pattern.matches(Array("Cursor CLI not installed. Please install the cursor CLI to use Cursor sessions.".utf8)))
    #expect(pattern.matches(Array(" CLI not installed. Please install the  CLI to use  sessions.".utf8)))
    #expect(!pattern.matches(Array("Cursor CLI not installed. Please install the cursor CLI to use Cursor.".utf8)))
    #expect(MessagePattern("Failed to upload file: <reason>").matches(Array("Failed to upload file: ".utf8)))
    #expect(!MessagePattern("Failed to upload file: <reason>").matches(Array("Failed to upload files".utf8)))
    #expect(MessagePattern("exact").matches(Array("exact".utf8)))
    #expect(!MessagePattern("exact").matches(Array("exactly".utf8)))
    // The suffix may not overlap the prefix.
    #expect(!MessagePattern("ab<x>ba").matches(Array("aba".utf8)))
  }
}
