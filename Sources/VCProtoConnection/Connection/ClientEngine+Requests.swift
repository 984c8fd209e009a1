import VCProtoCore
import VCProtoJSON

/// A request waiting for its answer: tracked (the application gave a request id) or not (it did not,
/// or the engine sent it itself), so that answers and refusals, which carry no request id, are matched
/// to requests in the order the server answers them.
struct PendingRequest: Sendable {
  /// The application's request id, or `nil` for a request nobody tracks (its answer is delivered as
  /// ``ClientApplicationEvent/received(_:)``).
  var id: String?
  /// The request's `type`.
  var type: String
  /// The session the request is about (`session_id`, `resume_session_id` or `new_session_id`), for
  /// attributing an `error` that names one.
  var sessionId: String?
  var answers: [String]
  /// The `session_id` an answer must repeat, when it names one (session-scoped requests).
  var correlation: String?
  /// When the request stops waiting and fails with ``RequestFailure/timeout`` (host milliseconds).
  var deadline: Int64
  /// The place of a request already answered, kept for the frames the server sends after its answer
  /// (the catalog's ``MessageSpec/followedBy``): untracked, and never refused by an `error`.
  var following = false
}

extension ClientEngine {
  /// For each request type, the frame types that answer it (first match wins, oldest request first):
  /// the catalog's ``MessageSpec/answers`` then ``MessageSpec/refusalTypes`` of every version
  /// (``ProtocolDeclaration/requestEndings``). 0.2.0's `session_locked` (the per-session lock, gone in
  /// 0.3.0) refuses a `prompt`, `compact_session` or `start_recipe` of the session it names, instead
  /// of the answer.
  public static let answerTypes: [String: [String]] = EngineFacts.requestEndings

  /// The answers that end only a request about the session they name (`session_id`): 0.2.0's lock
  /// refusal, the catalog's ``MessageSpec/endsOnlyItsSessionsRequest``.
  static let sessionBoundAnswers: Set<String> = EngineFacts.sessionBoundAnswerTypes

  /// The longest 0.2.0/0.3.0 cursor (`newest_message_id`, else the newest message's `uuid`) the engine
  /// keeps to send back as `last_message_id`: 256 UTF-8 bytes (real ids are 36-byte UUIDs). A history
  /// frame naming a longer one leaves the subscription with no cursor (``SessionUpdate/cursor`` is
  /// `nil`), so the next `subscribe` asks for the whole history and the positions already delivered
  /// keep it from being delivered twice.
  public static let maxCursorIdBytes = 256

  /// The request types whose answer comes after long work, and so wait
  /// ``ClientTiming/slowRequestTimeoutMs`` instead of ``ClientTiming/requestTimeoutMs``: the
  /// catalog's ``MessageSpec/isSlow`` (``ProtocolDeclaration/slowRequestTypes``).
  public static let slowRequestTypes: Set<String> = EngineFacts.slowRequestTypes

  /// Sends `message` on a ready connection; a request that waits for an answer fails with
  /// ``RequestFailure/timeout`` at `deadline` (default: its request timeout from `now`).
  mutating func send(
    _ message: ClientMessage, requestId: String?, now: Int64, deadline: Int64? = nil, _ out: inout ClientActions
  ) {
    // The members a request is matched by, read from the typed message (encoded once, never read back).
    let sessions = RequestSessions(
      sessionId: message.sessionIdMember, resumeSessionId: message.resumeSessionIdMember,
      newSessionId: message.newSessionIdMember)
    let type = message.type
    send(
      MessageEncoder().encode(message), type: type, sessions: sessions, answers: Self.answerTypes[type],
      requestId: requestId, deadline: deadline ?? now.addingSaturating(requestTimeout(type)), &out)
  }

  /// ``send(_:requestId:now:deadline:_:)`` of a frame the engine built (`set_max_message_size`).
  mutating func send(_ frame: JSONObject, requestId: String?, now: Int64, _ out: inout ClientActions) {
    var writer = JSONWriter()
    writer.write(frame)
    let type = frame["type"]?.stringValue ?? ""
    let sessions = RequestSessions(
      sessionId: frame["session_id"]?.stringValue, resumeSessionId: frame["resume_session_id"]?.stringValue,
      newSessionId: frame["new_session_id"]?.stringValue)
    send(
      writer.bytes, type: type, sessions: sessions, answers: Self.answerTypes[type], requestId: requestId,
      deadline: now.addingSaturating(requestTimeout(type)), &out)
  }

  /// The session members of a request (`nil` when absent or not a string).
  struct RequestSessions {
    var sessionId: String?
    var resumeSessionId: String?
    var newSessionId: String?
  }

  /// Records the request (when it waits for an answer) and sends its `bytes`.
  mutating func send(
    _ bytes: [UInt8], type: String, sessions: RequestSessions, answers: [String]?, requestId: String?,
    deadline due: Int64,
    _ out: inout ClientActions
  ) {
    var deadline: Int64?
    if let answers {
      let recorded = recordPending(sessions, type: type, answers: answers, id: requestId, deadline: due)
      if let requestId, !recorded {
        out.append(.deliver(.requestFailed(requestId: requestId, reason: .tooManyPending)))
        return
      }
      // An untracked request that found no room is sent unrecorded: nothing waits, no deadline.
      if recorded { deadline = due }
    }
    if type == "prompt", let id = sessions.newSessionId,
      !pendingNewSessions.contains(where: { $0.hasSameScalars(as: id) })
    {
      pendingNewSessions.append(id)
      if pendingNewSessions.count > 16 { pendingNewSessions.removeFirst() }
    }
    emit(bytes: bytes, &out)
    // One timer for every waiting request, at the earliest deadline; answers leave it alone (a fire
    // that finds nothing due only moves it on).
    if let deadline, armed[.requestDeadline].map({ deadline < $0 }) ?? true {
      arm(.requestDeadline, at: deadline, &out)
    }
  }

  /// Remembers a request that waits for an answer; `false` when the list is full. A full list makes
  /// room for a new request by forgetting the oldest untracked one (its answer, if it still comes, is
  /// then matched like an unsolicited frame); a tracked request never displaces another tracked one.
  mutating func recordPending(
    _ sessions: RequestSessions, type: String, answers: [String], id: String?, deadline: Int64
  ) -> Bool {
    if pending.count >= configuration.maxPendingRequests {
      guard let untracked = pending.firstIndex(where: { $0.id == nil }) else { return false }
      pending.remove(at: untracked)
    }
    let session = sessions.sessionId ?? sessions.resumeSessionId ?? sessions.newSessionId
    var request = PendingRequest(id: id, type: type, sessionId: session, answers: answers, deadline: deadline)
    if EngineFacts.sessionScopedRequestTypes.contains(type) { request.correlation = sessions.sessionId }
    pending.append(request)
    return true
  }

  /// Whether two ids a peer chose are present and the same exact scalars (``ExactString``).
  static func sameId(_ a: String?, _ b: String?) -> Bool {
    guard let a, let b else { return false }
    return a.hasSameScalars(as: b)
  }

  /// The oldest pending request `message` answers (or, for an `error`, refuses), removed from the
  /// list; `nil` if none. An answer that names a session (`session_id`) answers only a request of
  /// that session.
  mutating func resolvePending(_ message: ServerMessage) -> PendingRequest? {
    guard !pending.isEmpty else { return nil }
    if case .error(let error) = message {
      return ErrorAttribution.request(refusedBy: error, among: pending).map { pending.remove(at: $0) }
    }
    let type = message.type
    let named = message.sessionIdMember
    let sessionBound = Self.sessionBoundAnswers.contains(type)
    guard
      let index = pending.firstIndex(where: { request in
        request.answers.contains(type)
          && (request.correlation == nil || named == nil || Self.sameId(named, request.correlation))
          && (!sessionBound || Self.sameId(named, request.sessionId))
      })
    else { return nil }
    let request = pending.remove(at: index)
    // Some answers are followed by more frames for the same request (the catalog's `followedBy`:
    // `start_recipe`'s `ack`): an untracked entry in the request's place takes them, so that they
    // end no later request.
    if !request.following, let follow = EngineFacts.followingFrames[request.type], follow.answers.contains(type) {
      var place = PendingRequest(
        id: nil, type: request.type, sessionId: request.sessionId, answers: follow.following, deadline: request.deadline
      )
      place.following = true
      pending.insert(place, at: index)
    }
    return request
  }

  /// The request deadline passed: every request due by `now` ends, oldest first (the tracked ones
  /// fail with ``RequestFailure/timeout``, the others are forgotten), and the timer moves to the
  /// earliest deadline still ahead, if any request still waits.
  mutating func expirePending(now: Int64, _ out: inout ClientActions) {
    var next: Int64?
    pending.removeAll { request in
      guard request.deadline <= now else {
        next = min(next ?? request.deadline, request.deadline)
        return false
      }
      if let id = request.id { out.append(.deliver(.requestFailed(requestId: id, reason: .timeout))) }
      return true
    }
    if let next { arm(.requestDeadline, at: next, &out) }
  }

  /// Every pending request is over: the tracked ones fail with `reason`, the others are forgotten.
  mutating func failPending(_ reason: RequestFailure, _ out: inout ClientActions) {
    for request in pending {
      if let id = request.id { out.append(.deliver(.requestFailed(requestId: id, reason: reason))) }
    }
    pending = []
  }
}
