import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The client engine writes its `subscribe` and `unsubscribe` frames itself
/// (``ClientEngine/emitSubscribe(_:_:_:)``, ``ClientEngine/emitUnsubscribe(_:_:)``): the bytes must
/// be the generated encoder's for the typed messages, whatever the ids hold.
@Suite struct OwnFramesTests {
  static let ids = [
    "f47ac10b-58cc-4372-a567-0e02b2c3d479", "", "s-1", "quote\"back\\slash", "line\nbreak\ttab\u{0}\u{1F}",
    "caf\u{e9}-\u{212A}", "\u{1F600}", String(repeating: "x", count: 300), "\u{7F}\u{80}\u{2028}",
  ]

  /// The frames `body` sends, as text.
  func sent(_ body: (inout ClientEngine, inout ClientActions) -> Void) -> [String] {
    var engine = ClientEngine(ClientConfiguration(apiKey: "k"))
    var out = ClientActions(capacity: 4)
    body(&engine, &out)
    var frames: [String] = []
    out.drain { action in
      if case .send(.text(let bytes)) = action { frames.append(String(decoding: bytes, as: UTF8.self)) }
    }
    return frames
  }

  /// Every request of every family, for ids that need escaping and ids that do not, and twice in a
  /// row (the writer is reused: nothing of the longer frame before is left).
  @Test func subscribeIsTheEncodersFrame() {
    let families: [(VersionFamily, [Subscription.Request])] = [
      (.messageId, [.everything, .lastMessageId("m-1"), .lastMessageId("q\"\u{1}\u{e9}"), .lastMessageId("")]),
      (.seq, [.everything, .lastSeq(0), .lastSeq(42), .lastSeq(Int.max)]),
      (.offset, [.everything, .fromOffset(0), .fromOffset(123_456_789), .fromOffset(-1)]),
    ]
    var checked = 0
    for (family, requests) in families {
      for request in requests {
        for id in Self.ids {
          let expected = String(
            decoding: MessageEncoder().encode(ClientEngine.subscribeMessage(id, request, family: family)), as: UTF8.self
          )
          let frames = sent { engine, out in
            engine.emitSubscribe(String(repeating: "y", count: 400), request, &out)
            engine.emitSubscribe(id, request, &out)
          }
          #expect(frames.count == 2 && frames.last == expected, "\(family) \(request) \(id)")
          checked += 1
        }
      }
    }
    #expect(checked == 12 * Self.ids.count)
  }

  @Test func unsubscribeIsTheEncodersFrame() {
    for id in Self.ids {
      let expected = String(
        decoding: MessageEncoder().encode(.unsubscribe(UnsubscribeMessage(sessionId: id))), as: UTF8.self)
      let frames = sent { engine, out in
        engine.emitUnsubscribe(String(repeating: "y", count: 400), &out)
        engine.emitUnsubscribe(id, &out)
      }
      #expect(frames.count == 2 && frames.last == expected, "\(id)")
    }
  }
}
