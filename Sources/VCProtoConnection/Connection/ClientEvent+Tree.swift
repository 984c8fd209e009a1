import VCProtoCore
import VCProtoJSON

extension ClientEvent {
  /// A server frame given as a tree, received as the text message of its compact JSON
  /// (``JSONWriter``): for the tests and the ``ConversationObserver``, which hold trees. A host
  /// passes the bytes it received (``received(_:)``) and never parses JSON itself.
  package static func frameReceived(_ frame: JSONObject) -> ClientEvent {
    var writer = JSONWriter()
    writer.write(frame)
    return .received(.text(writer.bytes))
  }

  /// ``send(_:requestId:)`` of a frame given as a tree, kept whole (``ClientMessage/unknown(_:)``, which
  /// the engine writes member for member): for the tests and the ``ConversationObserver``.
  package static func sendFrame(_ frame: JSONObject, requestId: String?) -> ClientEvent {
    .send(.unknown(frame), requestId: requestId)
  }
}
