import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// What the client engine reads from a typed message instead of a tree (the generated
/// `EngineFacts.swift`, the history steps) is what the frame's own members say, over every valid
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

  /// The undeclared `file_signature` the history step of a frame before 0.5.0 reads.
  static func undeclaredSignature(of typed: ServerMessage) -> String? {
    switch typed {
    case .sessionHistory(.v0_2_0(let h)): return ClientEngine.undeclaredSignature(in: h.additionalMembers)
    case .sessionHistory(.v0_3_0(let h)): return ClientEngine.undeclaredSignature(in: h.additionalMembers)
    case .sessionHistory(.v0_4_0(let h)): return ClientEngine.undeclaredSignature(in: h.additionalMembers)
    case .sessionUpdated(.v0_2_0(let u)): return ClientEngine.undeclaredSignature(in: u.additionalMembers)
    case .sessionUpdated(.v0_3_0(let u)): return ClientEngine.undeclaredSignature(in: u.additionalMembers)
    default: return nil
    }
  }

  @Test func membersReadFromTheTypedMessageAreTheFramesMembers() throws {
    var server = 0
    var client = 0
    var undeclaredSignatures = 0
    for (frame, message, version) in try Self.decodedVectors() {
      switch message {
      case .server(let typed):
        server += 1
        #expect(typed.sessionIdMember == frame["session_id"]?.stringValue, "\(version) \(frame)")
        #expect(typed.messageIdMember == frame["message_id"]?.stringValue, "\(version) \(frame)")
        if let messages = SessionMessages(of: typed) {
          // The history steps read the typed payload's own members; beyond those, the messages'
          // positions and an undeclared `file_signature` (``ClientEngine/undeclaredSignature(in:)``).
          #expect(messages.count == frame["messages"]?.arrayValue?.count)
          for index in 0..<messages.count where version < "0.4.0" {
            let uuid = frame["messages"]?.arrayValue?[index]["uuid"]?.stringValue
            #expect(messages.uuid(at: index) == uuid, "\(version) \(frame)")
          }
          var undeclared = frame
          undeclared["file_signature"] = "9:undeclared"
          if version < "0.5.0",
            case .server(let retyped)? = try? MessageDecoder(
              options: ValidationOptions(version: ProtocolVersion(rawValue: version)!)
            ).decode(JSONValue.object(undeclared).jsonText)
          {
            #expect(Self.undeclaredSignature(of: retyped) == "9:undeclared", "\(version) \(frame)")
            undeclaredSignatures += 1
            #expect(Self.undeclaredSignature(of: typed) == frame["file_signature"]?.stringValue)
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
    #expect(undeclaredSignatures > 10)
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
