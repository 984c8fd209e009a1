import VCProtoCore
import VCProtoJSON

extension ConversationObserver {
  /// The server frames that only ever answer a request: the answers of ``ClientEngine/answerTypes``
  /// less those the real server also sends on its own or may send for work it started itself
  /// (``answersSentUnprompted``).
  public static let answerOnlyTypes: Set<String> = Set(ClientEngine.answerTypes.values.joined())
    .subtracting(answersSentUnprompted)

  /// Answers that are not findings without a request: `session_list` follows every `connect`; `ack`
  /// also answers `start_recipe`; recipe, command, naming, compaction, worktree and upload results
  /// may come from work the server (its recipe runner or supervisor) or the HTTP upload started, and
  /// so may 0.2.0's `session_locked` (a recipe's later prompts meet the same lock).
  public static let answersSentUnprompted: Set<String> = [
    "session_list", "ack", "session_locked", "available_recipes", "recipe_started", "recipe_exited", "command_started",
    "command_error", "session_name_inferred", "infer_name_error", "compaction_complete", "compaction_error",
    "worktree_session_created", "worktree_session_error", "file_uploaded",
  ]

  /// The requests whose answers are followed: those with an answer in ``answerOnlyTypes``.
  static let followedRequests: Set<String> = Set(
    ClientEngine.answerTypes.filter { !answerOnlyTypes.isDisjoint(with: $0.value) }.keys)

  /// `connect`: a client engine starts following this connection's subscriptions and requests (a
  /// second `connect` on the same socket starts over, as the server does).
  mutating func startFollowing(now: Int64) {
    continuations = [:]
    answersTracked = true
    subscribedSessions = MessageIDMemory(capacity: Self.trackedSessions)
    sessions = Self.engine(for: protocolVersion, now: now)
  }

  /// A refusal: nothing is followed until the next `connect`.
  mutating func stopFollowing() {
    sessions = nil
    continuations = [:]
  }

  private static func engine(for version: ProtocolVersion, now: Int64) -> ClientEngine? {
    ClientEngine(observing: version, tracked: trackedSessions, now: now)
  }

  /// Feeds the following engine one event. It accepts every event the observer gives it (they are
  /// all legal in `ready`, and no frame fed to it leaves `ready`); if it ever refused one, it would
  /// no longer mirror the client, so the checks it backs stop for this connection.
  private mutating func drive(_ event: ClientEvent, now: Int64) -> [ClientAction]? {
    guard var engine = sessions else { return nil }
    sessions = nil  // taken out while it changes, so its tables are not copied on write
    do {
      let actions = try engine.handle(event, now: now)
      sessions = engine
      return actions
    } catch {
      answersTracked = false
      continuations = [:]
      return nil
    }
  }

  /// A client frame: subscriptions (and whether one resumes where a continuation must) and
  /// requests that wait for an answer.
  mutating func followClientFrame(_ frame: Frame, _ type: String, into findings: inout [Finding]) {
    guard sessions != nil else { return }
    let message = frame.message
    let now = frame.time ?? 0
    switch type {
    case "subscribe":
      guard let id = message["session_id"]?.stringValue, id.utf8.count <= Self.maxTrackedIDBytes else { return }
      subscribedSessions.insert(id)
      guard let family = sessions?.family else { return }
      if let expected = continuations.removeValue(forKey: ExactString(id)) {
        resumption(of: message, expected: expected, into: &findings)
      }
      _ = drive(.subscribe(sessionId: id, cursor: Self.cursor(of: message, family)), now: now)
    case "unsubscribe":
      guard let id = message["session_id"]?.stringValue, id.utf8.count <= Self.maxTrackedIDBytes else { return }
      continuations[ExactString(id)] = nil
      _ = drive(.unsubscribe(sessionId: id), now: now)
    default:
      guard answersTracked, Self.followedRequests.contains(type) else { return }
      // The engine keeps a session-scoped request's `session_id` to match its answer: only short ones.
      if let id = message["session_id"], !id.isNull, (id.stringValue?.utf8.count ?? .max) > Self.maxTrackedIDBytes {
        answersTracked = false
        return
      }
      requestsSent += 1
      let actions = drive(.sendFrame(message, requestId: String(requestsSent)), now: now) ?? []
      if actions.contains(where: { if case .deliver(.requestFailed) = $0 { true } else { false } }) {
        answersTracked = false  // more waiting requests than the engine follows
      }
    }
  }

  /// A server frame: session data and answers.
  mutating func followServerFrame(_ frame: Frame, _ type: String, into findings: inout [Finding]) {
    guard sessions != nil else { return }
    let message = frame.message
    let now = frame.time ?? 0
    if type == "connected", sessions?.negotiatedVersion != protocolVersion {
      // `connected` decided another version than the `connect` predicted: follow that one.
      answersTracked = answersTracked && requestsSent == 0
      continuations = [:]
      sessions = Self.engine(for: protocolVersion, now: now)
      return
    }
    if type == "session_history" {
      history(message, now: now, into: &findings)
    } else if Self.answerOnlyTypes.contains(type), answersTracked {
      guard let actions = drive(.frameReceived(message), now: now) else { return }
      if !actions.contains(where: { if case .deliver(.answered) = $0 { true } else { false } }) {
        findings.append(
          Finding(
            .warning, .unsolicitedAnswer, pointer: "/type", messageType: type,
            message:
              "\"\(type)\" answers a request the client did not make on this connection (or one already answered)"))
      }
    }
  }

  /// A `session_history`: from 0.5.0 only a subscriber gets one; the engine says whether (and
  /// where) the client must continue.
  private mutating func history(_ message: JSONObject, now: Int64, into findings: inout [Finding]) {
    guard let id = message["session_id"]?.stringValue, let family = sessions?.family else { return }
    if family == .offset, !subscribedSessions.hasForgotten, id.utf8.count <= Self.maxTrackedIDBytes,
      !subscribedSessions.contains(id)
    {
      findings.append(
        Finding(
          .error, .unsubscribedSessionData, pointer: "/session_id", messageType: "session_history",
          message: "session_history for a session the client has not subscribed to on this connection"))
    }
    guard id.utf8.count <= Self.maxTrackedIDBytes else { return }
    // 0.2.0/0.3.0: the engine keeps the newest message id as the session's cursor (no check here
    // reads it), so a frame whose ids are not short is not followed.
    if family == .messageId, !Self.idsAreShort(message) { return }
    // The engine keeps a fixed-size digest of each session's signature, so any length is followed.
    guard drive(.frameReceived(message), now: now) != nil else { return }
    continuations[ExactString(id)] = nil
    let replaced = message["file_replaced"]?.boolValue == true
    let continued =
      replaced || message["end_of_file"]?.boolValue == false || message["is_complete"]?.boolValue == false
    guard continued, let cursor = sessions?.continuationCursor(of: id) else { return }
    // The engine also reloads when a signature looks replaced without the server saying so; the
    // real client continues at next_offset there and the server sorts it out, so only the flag counts.
    if case .offset(let at, _) = cursor, !replaced, at != message["next_offset"]?.intValue { return }
    continuations[ExactString(id)] = cursor
  }

  /// Whether the ids a 0.2.0/0.3.0 `session_history` could leave as the engine's cursor
  /// (`newest_message_id`, else a message's `uuid`) are all at most ``maxTrackedIDBytes`` long.
  private static func idsAreShort(_ message: JSONObject) -> Bool {
    func short(_ value: JSONValue?) -> Bool { (value?.stringValue?.utf8.count ?? 0) <= maxTrackedIDBytes }
    guard short(message["newest_message_id"]) else { return false }
    guard case .array(let messages)? = message["messages"] else { return true }
    return messages.allSatisfy { short($0["uuid"]) }
  }

  /// Whether a `subscribe` resumes where the continuation must.
  private func resumption(of message: JSONObject, expected: SubscriptionCursor, into findings: inout [Finding]) {
    switch expected {
    case .offset(let at, _):
      guard let from = message["from_offset"]?.intValue, from != at else { return }
      findings.append(
        Finding(
          .warning, .continuationMismatch, pointer: "/from_offset", messageType: "subscribe",
          message: "the continuation resumes at \(from), but the last session_history said to resume at "
            + "next_offset \(at)"))
    case .lastSeq(let at):
      guard let from = message["last_seq"]?.intValue, from != at else { return }
      findings.append(
        Finding(
          .warning, .continuationMismatch, pointer: "/last_seq", messageType: "subscribe",
          message: "the continuation asks after last_seq \(from), but the incomplete session_history ended at "
            + "last_seq \(at)"))
    case .lastMessageId: return
    }
  }

  /// The cursor an observed `subscribe` resumes from, in the engine's terms.
  private static func cursor(of message: JSONObject, _ family: VersionFamily) -> SubscriptionCursor? {
    switch family {
    case .messageId:
      guard let last = message["last_message_id"]?.stringValue, last.utf8.count <= maxTrackedIDBytes else { return nil }
      return .lastMessageId(last)
    // A negative one is refused by the server (and reported by the validator): no cursor.
    case .seq: return message["last_seq"]?.intValue.flatMap { $0 >= 0 ? .lastSeq($0) : nil }
    case .offset: return message["from_offset"]?.intValue.flatMap { $0 >= 0 ? .offset($0, signature: nil) : nil }
    }
  }
}
