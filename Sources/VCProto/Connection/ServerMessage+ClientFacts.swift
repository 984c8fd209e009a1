/// What the client engine reads of a received message besides its type, read from the typed message
/// (the engine never holds a tree of a received frame): the `session_id` and `message_id` members.
/// Each is the member its type declares, else a string member of that name the peer added (kept in
/// `additionalMembers`, as a tree would have it), else `nil`. One switch over the model's cases: a
/// type added to the catalog is a compile error here until it is placed (`EngineMessageFactsTests`
/// holds both readers to the frame's own members over every message vector).
extension ServerMessage {
  /// The message's `session_id` string, declared or added; `nil` when it has none.
  var sessionIdMember: String? {
    switch self {
    case .connected(let m): return m.sessionId
    case .error(let m): return m.sessionId
    case .sessionHistory(.v0_2_0(let m)): return m.sessionId
    case .sessionHistory(.v0_3_0(let m)): return m.sessionId
    case .sessionHistory(.v0_4_0(let m)): return m.sessionId
    case .sessionHistory(.v0_5_0(let m)): return m.sessionId
    case .sessionUpdated(.v0_2_0(let m)): return m.sessionId
    case .sessionUpdated(.v0_3_0(let m)): return m.sessionId
    case .sessionCreated(.v0_2_0(let m)): return m.sessionId
    case .sessionCreated(.v0_3_0(let m)): return m.sessionId
    case .sessionReady(let m): return m.sessionId
    case .turnComplete(.v0_2_0(let m)): return m.sessionId
    case .turnComplete(.v0_3_0(let m)): return m.sessionId
    case .sessionLocked(let m): return m.sessionId
    case .sessionKilled(let m): return m.sessionId
    case .sessionNameInferred(let m): return m.sessionId
    case .inferNameError(let m): return m.sessionId
    case .compactionComplete(let m): return m.sessionId
    case .compactionError(let m): return m.sessionId
    case .worktreeSessionCreated(let m): return m.sessionId
    case .recipeStarted(let m): return m.sessionId
    case .recipeStepStarted(let m): return m.sessionId
    case .recipeStepTransition(let m): return m.sessionId
    case .orchestrationRetry(let m): return m.sessionId
    case .recipeExited(let m): return m.sessionId
    case .response(.v0_2_0(let m)): return m.sessionId
    case .response(.v0_3_0(let m)): return m.sessionId
    case .hello(let m): return m.additionalMembers["session_id"]?.stringValue
    case .authError(let m): return m.additionalMembers["session_id"]?.stringValue
    case .pong(let m): return m.additionalMembers["session_id"]?.stringValue
    case .ack(let m): return m.additionalMembers["session_id"]?.stringValue
    case .sessionList(.v0_2_0(let m)): return m.additionalMembers["session_id"]?.stringValue
    case .sessionList(.v0_3_0(let m)): return m.additionalMembers["session_id"]?.stringValue
    case .recentSessions(.v0_2_0(let m)): return m.additionalMembers["session_id"]?.stringValue
    case .recentSessions(.v0_3_0(let m)): return m.additionalMembers["session_id"]?.stringValue
    case .availableCommands(let m): return m.additionalMembers["session_id"]?.stringValue
    case .worktreeSessionError(let m): return m.additionalMembers["session_id"]?.stringValue
    case .commandStarted(let m): return m.additionalMembers["session_id"]?.stringValue
    case .commandOutput(let m): return m.additionalMembers["session_id"]?.stringValue
    case .commandComplete(let m): return m.additionalMembers["session_id"]?.stringValue
    case .commandError(let m): return m.additionalMembers["session_id"]?.stringValue
    case .commandHistory(let m): return m.additionalMembers["session_id"]?.stringValue
    case .commandOutputFull(let m): return m.additionalMembers["session_id"]?.stringValue
    case .fileUploaded(let m): return m.additionalMembers["session_id"]?.stringValue
    case .resourcesList(let m): return m.additionalMembers["session_id"]?.stringValue
    case .resourceDeleted(let m): return m.additionalMembers["session_id"]?.stringValue
    case .availableRecipes(let m): return m.additionalMembers["session_id"]?.stringValue
    case .replay(.v0_2_0(let m)): return m.additionalMembers["session_id"]?.stringValue
    case .replay(.v0_3_0(let m)): return m.additionalMembers["session_id"]?.stringValue
    case .canvasUpdate(let m): return m.additionalMembers["session_id"]?.stringValue
    case .ttsSpeak(let m): return m.additionalMembers["session_id"]?.stringValue
    case .supervisorThinking(let m): return m.additionalMembers["session_id"]?.stringValue
    case .connectAck(let m): return m.additionalMembers["session_id"]?.stringValue
    case .heartbeat(let m): return m.additionalMembers["session_id"]?.stringValue
    case .draining(let m): return m.additionalMembers["session_id"]?.stringValue
    case .unknown(let object): return object["session_id"]?.stringValue
    }
  }

  /// The message's `message_id` string (the `message_ack` extension), declared or added; `nil` when
  /// it has none.
  var messageIdMember: String? {
    switch self {
    case .error(let m): return m.messageId
    case .response(.v0_2_0(let m)): return m.messageId
    case .response(.v0_3_0(let m)): return m.messageId
    case .replay(.v0_2_0(let m)): return m.messageId
    case .replay(.v0_3_0(let m)): return m.messageId
    case .hello(let m): return m.additionalMembers["message_id"]?.stringValue
    case .connected(let m): return m.additionalMembers["message_id"]?.stringValue
    case .authError(let m): return m.additionalMembers["message_id"]?.stringValue
    case .pong(let m): return m.additionalMembers["message_id"]?.stringValue
    case .ack(let m): return m.additionalMembers["message_id"]?.stringValue
    case .sessionList(.v0_2_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionList(.v0_3_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .recentSessions(.v0_2_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .recentSessions(.v0_3_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .availableCommands(let m): return m.additionalMembers["message_id"]?.stringValue
    case .sessionHistory(.v0_2_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionHistory(.v0_3_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionHistory(.v0_4_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionHistory(.v0_5_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionUpdated(.v0_2_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionUpdated(.v0_3_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionCreated(.v0_2_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionCreated(.v0_3_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionReady(let m): return m.additionalMembers["message_id"]?.stringValue
    case .turnComplete(.v0_2_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .turnComplete(.v0_3_0(let m)): return m.additionalMembers["message_id"]?.stringValue
    case .sessionLocked(let m): return m.additionalMembers["message_id"]?.stringValue
    case .sessionKilled(let m): return m.additionalMembers["message_id"]?.stringValue
    case .sessionNameInferred(let m): return m.additionalMembers["message_id"]?.stringValue
    case .inferNameError(let m): return m.additionalMembers["message_id"]?.stringValue
    case .compactionComplete(let m): return m.additionalMembers["message_id"]?.stringValue
    case .compactionError(let m): return m.additionalMembers["message_id"]?.stringValue
    case .worktreeSessionCreated(let m): return m.additionalMembers["message_id"]?.stringValue
    case .worktreeSessionError(let m): return m.additionalMembers["message_id"]?.stringValue
    case .commandStarted(let m): return m.additionalMembers["message_id"]?.stringValue
    case .commandOutput(let m): return m.additionalMembers["message_id"]?.stringValue
    case .commandComplete(let m): return m.additionalMembers["message_id"]?.stringValue
    case .commandError(let m): return m.additionalMembers["message_id"]?.stringValue
    case .commandHistory(let m): return m.additionalMembers["message_id"]?.stringValue
    case .commandOutputFull(let m): return m.additionalMembers["message_id"]?.stringValue
    case .fileUploaded(let m): return m.additionalMembers["message_id"]?.stringValue
    case .resourcesList(let m): return m.additionalMembers["message_id"]?.stringValue
    case .resourceDeleted(let m): return m.additionalMembers["message_id"]?.stringValue
    case .availableRecipes(let m): return m.additionalMembers["message_id"]?.stringValue
    case .recipeStarted(let m): return m.additionalMembers["message_id"]?.stringValue
    case .recipeStepStarted(let m): return m.additionalMembers["message_id"]?.stringValue
    case .recipeStepTransition(let m): return m.additionalMembers["message_id"]?.stringValue
    case .orchestrationRetry(let m): return m.additionalMembers["message_id"]?.stringValue
    case .recipeExited(let m): return m.additionalMembers["message_id"]?.stringValue
    case .canvasUpdate(let m): return m.additionalMembers["message_id"]?.stringValue
    case .ttsSpeak(let m): return m.additionalMembers["message_id"]?.stringValue
    case .supervisorThinking(let m): return m.additionalMembers["message_id"]?.stringValue
    case .connectAck(let m): return m.additionalMembers["message_id"]?.stringValue
    case .heartbeat(let m): return m.additionalMembers["message_id"]?.stringValue
    case .draining(let m): return m.additionalMembers["message_id"]?.stringValue
    case .unknown(let object): return object["message_id"]?.stringValue
    }
  }
}
