import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// What the client engine reads from a typed message instead of a tree (the generated
/// `EngineFacts.swift`, ``HistoryFrame``) is what the frame's own members say, over every valid
/// message vector of every version, and over the same frames with the members added where the type
/// does not declare them.
@Suite struct EngineMessageFactsTests {
  /// The valid vectors, decoded with their version's decoder, with the frame's tree.
  static func decodedVectors() throws -> [(frame: JSONObject, message: AnyMessage, version: String)] {
    try MessageVectorTests.vectors().filter(\.valid).compactMap { vector in
      guard let version = ProtocolVersion(rawValue: vector.protocol_version),
        case .object(let frame) = try JSONReader().parse(vector.frame)
      else { return nil }
      let message = try MessageDecoder(options: ValidationOptions(version: version)).decode(vector.frame)
      return (frame, message, vector.protocol_version)
    }
  }

  @Test func membersReadFromTheTypedMessageAreTheFramesMembers() throws {
    var server = 0
    var client = 0
    for (frame, message, version) in try Self.decodedVectors() {
      switch message {
      case .server(let typed):
        server += 1
        #expect(typed.sessionIdMember == frame["session_id"]?.stringValue, "\(version) \(frame)")
        #expect(typed.messageIdMember == frame["message_id"]?.stringValue, "\(version) \(frame)")
        if let history = HistoryFrame(typed) {
          #expect(history.sessionId == frame["session_id"]?.stringValue)
          #expect(history.messages.count == frame["messages"]?.arrayValue?.count)
          #expect(history.newestMessageId == frame["newest_message_id"]?.stringValue, "\(version) \(frame)")
          #expect(history.isComplete == frame["is_complete"]?.boolValue, "\(version) \(frame)")
          #expect(history.lastSeq == frame["last_seq"]?.intValue, "\(version) \(frame)")
          #expect(history.nextSeq == frame["next_seq"]?.intValue, "\(version) \(frame)")
          #expect(history.nextOffset == frame["next_offset"]?.intValue, "\(version) \(frame)")
          #expect(history.endOfFile == frame["end_of_file"]?.boolValue, "\(version) \(frame)")
          #expect(history.fileSignature == frame["file_signature"]?.stringValue, "\(version) \(frame)")
          #expect(history.fileReplaced == frame["file_replaced"]?.boolValue, "\(version) \(frame)")
          #expect(
            history.gap?.reason.rawValue == frame["gap"]?["reason"]?.stringValue, "\(version) \(frame)")
          for index in 0..<history.messages.count where version < "0.4.0" {
            let uuid = frame["messages"]?.arrayValue?[index]["uuid"]?.stringValue
            #expect(history.messages.uuid(at: index) == uuid, "\(version) \(frame)")
          }
        }
      case .client(let typed):
        client += 1
        #expect(typed.sessionIdMember == frame["session_id"]?.stringValue, "\(version) \(frame)")
        #expect(typed.resumeSessionIdMember == frame["resume_session_id"]?.stringValue, "\(version) \(frame)")
        #expect(typed.newSessionIdMember == frame["new_session_id"]?.stringValue, "\(version) \(frame)")
      case .unknown: break
      }
    }
    #expect(server > 200 && client > 200)
  }

  /// A `session_id` or `message_id` the type does not declare, added by the peer, is read too (as a
  /// tree would have it): an answer naming another session answers no request of a session.
  @Test func undeclaredMembersAreReadToo() throws {
    var checked = 0
    for (frame, message, version) in try Self.decodedVectors() {
      guard frame["session_id"] == nil, frame["message_id"] == nil,
        let decoder = ProtocolVersion(rawValue: version).map({ MessageDecoder(options: ValidationOptions(version: $0)) }
        )
      else { continue }
      var added = frame
      added["session_id"] = "added-session"
      added["message_id"] = "added-message"
      guard let retyped = try? decoder.decode(JSONValue.object(added).jsonText) else { continue }
      switch (message, retyped) {
      case (.server, .server(let typed)):
        #expect(typed.sessionIdMember == "added-session", "\(version) \(added)")
        #expect(typed.messageIdMember == "added-message", "\(version) \(added)")
        checked += 1
      case (.client, .client(let typed)):
        #expect(typed.sessionIdMember == "added-session", "\(version) \(added)")
        checked += 1
      default: break
      }
    }
    #expect(checked > 100)
  }
}
