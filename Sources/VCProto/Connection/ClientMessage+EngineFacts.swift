/// What the client engine records of a request it sends, read from the typed message it encodes
/// (never from its own encoded bytes): the session members a request is matched and attributed by.
/// Each is the member the type declares, else a string member of that name added to the message
/// (`additionalMembers`, or the object of ``ClientMessage/unknown(_:)``), else `nil`. One switch over
/// the model's cases: a type added to the catalog is a compile error here until it is placed
/// (`EngineMessageFactsTests` holds the readers to the encoded members over every message vector).
extension ClientMessage {
  /// The message's `session_id` string, declared or added; `nil` when it has none.
  var sessionIdMember: String? {
    switch self {
    case .connect(let m): return m.sessionId
    case .subscribe(.v0_2_0(let m)): return m.sessionId
    case .subscribe(.v0_4_0(let m)): return m.sessionId
    case .subscribe(.v0_5_0(let m)): return m.sessionId
    case .unsubscribe(let m): return m.sessionId
    case .sessionDeleted(let m): return m.sessionId
    case .prompt(.v0_2_0(let m)): return m.sessionId
    case .prompt(.v0_3_0(let m)): return m.sessionId
    case .compactSession(let m): return m.sessionId
    case .killSession(let m): return m.sessionId
    case .inferSessionName(let m): return m.sessionId
    case .startRecipe(.v0_2_0(let m)): return m.sessionId
    case .startRecipe(.v0_3_0(let m)): return m.sessionId
    case .exitRecipe(let m): return m.sessionId
    case .ping(let m): return m.additionalMembers["session_id"]?.stringValue
    case .setDirectory(let m): return m.additionalMembers["session_id"]?.stringValue
    case .setMaxMessageSize(let m): return m.additionalMembers["session_id"]?.stringValue
    case .messageAck(let m): return m.additionalMembers["session_id"]?.stringValue
    case .createWorktreeSession(let m): return m.additionalMembers["session_id"]?.stringValue
    case .executeCommand(let m): return m.additionalMembers["session_id"]?.stringValue
    case .getCommandHistory(let m): return m.additionalMembers["session_id"]?.stringValue
    case .getCommandOutput(let m): return m.additionalMembers["session_id"]?.stringValue
    case .uploadFile(let m): return m.additionalMembers["session_id"]?.stringValue
    case .listResources(let m): return m.additionalMembers["session_id"]?.stringValue
    case .deleteResource(let m): return m.additionalMembers["session_id"]?.stringValue
    case .getAvailableRecipes(let m): return m.additionalMembers["session_id"]?.stringValue
    case .refreshSessions(let m): return m.additionalMembers["session_id"]?.stringValue
    case .supervisorMessage(let m): return m.additionalMembers["session_id"]?.stringValue
    case .canvasAction(let m): return m.additionalMembers["session_id"]?.stringValue
    case .disconnect(let m): return m.additionalMembers["session_id"]?.stringValue
    case .unknown(let object): return object["session_id"]?.stringValue
    }
  }

  /// The message's `resume_session_id` string, declared or added; `nil` when it has none.
  var resumeSessionIdMember: String? {
    switch self {
    case .prompt(.v0_2_0(let m)): return m.resumeSessionId
    case .prompt(.v0_3_0(let m)): return m.resumeSessionId
    case .connect(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .ping(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .subscribe(.v0_2_0(let m)): return m.additionalMembers["resume_session_id"]?.stringValue
    case .subscribe(.v0_4_0(let m)): return m.additionalMembers["resume_session_id"]?.stringValue
    case .subscribe(.v0_5_0(let m)): return m.additionalMembers["resume_session_id"]?.stringValue
    case .unsubscribe(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .sessionDeleted(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .setDirectory(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .setMaxMessageSize(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .messageAck(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .compactSession(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .killSession(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .inferSessionName(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .createWorktreeSession(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .executeCommand(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .getCommandHistory(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .getCommandOutput(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .uploadFile(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .listResources(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .deleteResource(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .startRecipe(.v0_2_0(let m)): return m.additionalMembers["resume_session_id"]?.stringValue
    case .startRecipe(.v0_3_0(let m)): return m.additionalMembers["resume_session_id"]?.stringValue
    case .exitRecipe(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .getAvailableRecipes(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .refreshSessions(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .supervisorMessage(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .canvasAction(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .disconnect(let m): return m.additionalMembers["resume_session_id"]?.stringValue
    case .unknown(let object): return object["resume_session_id"]?.stringValue
    }
  }

  /// The message's `new_session_id` string, declared or added; `nil` when it has none.
  var newSessionIdMember: String? {
    switch self {
    case .prompt(.v0_2_0(let m)): return m.newSessionId
    case .prompt(.v0_3_0(let m)): return m.newSessionId
    case .connect(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .ping(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .subscribe(.v0_2_0(let m)): return m.additionalMembers["new_session_id"]?.stringValue
    case .subscribe(.v0_4_0(let m)): return m.additionalMembers["new_session_id"]?.stringValue
    case .subscribe(.v0_5_0(let m)): return m.additionalMembers["new_session_id"]?.stringValue
    case .unsubscribe(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .sessionDeleted(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .setDirectory(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .setMaxMessageSize(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .messageAck(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .compactSession(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .killSession(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .inferSessionName(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .createWorktreeSession(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .executeCommand(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .getCommandHistory(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .getCommandOutput(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .uploadFile(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .listResources(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .deleteResource(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .startRecipe(.v0_2_0(let m)): return m.additionalMembers["new_session_id"]?.stringValue
    case .startRecipe(.v0_3_0(let m)): return m.additionalMembers["new_session_id"]?.stringValue
    case .exitRecipe(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .getAvailableRecipes(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .refreshSessions(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .supervisorMessage(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .canvasAction(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .disconnect(let m): return m.additionalMembers["new_session_id"]?.stringValue
    case .unknown(let object): return object["new_session_id"]?.stringValue
    }
  }
}
