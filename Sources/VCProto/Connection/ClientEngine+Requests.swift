/// A request waiting for its answer.
struct PendingRequest: Sendable, Hashable {
  var id: String
  var answers: [String]
  /// A member the answer must repeat (`session_id` for session-scoped requests), with its value.
  var correlation: (key: String, value: JSONValue)?

  static func == (l: PendingRequest, r: PendingRequest) -> Bool { l.id == r.id }
  func hash(into h: inout Hasher) { h.combine(id) }
}

extension ClientEngine {
  /// For each request type, the frame types that answer it (first match wins, oldest request first).
  public static let answerTypes: [String: [String]] = [
    "execute_command": ["command_started", "command_error"],
    "get_command_output": ["command_output_full"],
    "get_command_history": ["command_history"],
    "infer_session_name": ["session_name_inferred", "infer_name_error"],
    "compact_session": ["compaction_complete", "compaction_error"],
    "create_worktree_session": ["worktree_session_created", "worktree_session_error"],
    "kill_session": ["session_killed"],
    "refresh_sessions": ["session_list"],
    "list_resources": ["resources_list"],
    "delete_resource": ["resource_deleted"],
    "upload_file": ["file_uploaded"],
    "get_available_recipes": ["available_recipes"],
    "start_recipe": ["recipe_started"],
    "exit_recipe": ["recipe_exited"],
    "set_max_message_size": ["ack"],
    "prompt": ["ack"],
  ]

  mutating func send(_ frame: JSONObject, requestId: String?, _ out: inout [ClientAction]) {
    let type = frame["type"]?.stringValue ?? ""
    if let requestId {
      guard pending.count < configuration.maxPendingRequests else {
        out.append(.deliver(.requestFailed(requestId: requestId, reason: .tooManyPending)))
        return
      }
      var request = PendingRequest(id: requestId, answers: Self.answerTypes[type] ?? [])
      if ["infer_session_name", "compact_session", "kill_session"].contains(type), let id = frame["session_id"] {
        request.correlation = ("session_id", id)
      }
      if !request.answers.isEmpty { pending.append(request) }
    }
    if type == "prompt", let id = frame["new_session_id"]?.stringValue, !pendingNewSessions.contains(id) {
      pendingNewSessions.append(id)
      if pendingNewSessions.count > 16 { pendingNewSessions.removeFirst() }
    }
    out.append(.send(frame))
  }

  /// The id of the oldest pending request `frame` answers, removed from the list; `nil` if none.
  mutating func resolvePending(_ frame: JSONObject, type: String) -> String? {
    guard !pending.isEmpty else { return nil }
    guard
      let index = pending.firstIndex(where: { request in
        request.answers.contains(type)
          && (request.correlation.map { frame[$0.key] == nil || frame[$0.key] == $0.value } ?? true)
      })
    else { return nil }
    return pending.remove(at: index).id
  }

  mutating func failPending(_ reason: RequestFailure, _ out: inout [ClientAction]) {
    for request in pending { out.append(.deliver(.requestFailed(requestId: request.id, reason: reason))) }
    pending = []
  }
}
