import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoJSON

/// `ActionBuffer`, the reusable buffer of an engine's actions (`ServerActions`, `ClientActions`): the
/// engine appends each event's actions in order, `drain` hands them over in that order and leaves
/// the buffer empty and reusable, and the array form of `handle` returns the same actions. (The
/// client's form: SessionUpdateStorageTests.bufferTakingHandleAppendsTheSameActions.)
@Suite struct ActionBufferTests {
  /// Events through one reused buffer give, event by event, the actions the array form gives an
  /// identical engine; each drain empties the buffer, and an event the state refuses appends nothing.
  @Test func aReusedBufferGivesTheArrayFormsActions() throws {
    let key = ServerValidationBoundaryTests.key
    let events: [ServerEvent] = [
      .transportOpened(challenge: nil),
      .frameReceived(.frame("connect", ["api_key": .string(key), "protocol_version": "0.5.0"])),
      .frameReceived(.frame("ping", [:])),
      .frameReceived(.frame("subscribe", ["session_id": "s-1", "from_offset": 3])),
      .frameReceived(.frame("execute_command", ["command_id": "build", "working_directory": "/w"])),
      .received(.text("not json")),
      .frameReceived(.frame("unsubscribe", ["session_id": "s-1"])),
      .close,
    ]
    var buffered = ServerEngine(ServerConfiguration(offer: .realHead, apiKey: key))
    var arrayed = buffered
    var actions = ServerActions(capacity: 1)  // grows on the first event with two actions
    for event in events {
      try buffered.handle(event, now: 5, into: &actions)
      let expected = try arrayed.handle(event, now: 5)
      var drained: [ServerAction] = []
      actions.drain { drained.append($0) }
      #expect(drained == expected, "\(event.name)")
      let (empty, count) = (actions.isEmpty, actions.count)
      #expect(empty && count == 0)
    }
    #expect(buffered.state == .closed)
    #expect(throws: IllegalEvent.self) { try buffered.handle(.send(.pong(PongMessage())), now: 6, into: &actions) }
    let emptyAfterRefusal = actions.isEmpty
    #expect(emptyAfterRefusal)
  }

  /// Actions appended over several events without a drain stay in order across growth, and a drain
  /// whose body throws drops the rest, leaving the buffer empty and usable.
  @Test func orderAcrossGrowthAndAThrowingDrain() throws {
    struct Stop: Error {}
    var actions = ServerActions(capacity: 2)
    for n in 0..<37 { actions.append(.armTimer(.heartbeat, at: Int64(n))) }
    let held = actions.count
    #expect(held == 37)
    var seen: [Int64] = []
    #expect(throws: Stop.self) {
      try actions.drain { action in
        guard case .armTimer(_, let at) = action else { return }
        seen.append(at)
        if at == 20 { throw Stop() }
      }
    }
    #expect(seen == Array(0...20))
    let emptyAfterThrow = actions.isEmpty
    #expect(emptyAfterThrow)
    actions.append(.send(.text(Array("kept".utf8))))
    var after: [ServerAction] = []
    actions.drain { after.append($0) }
    #expect(after == [.send(.text(Array("kept".utf8)))])
  }
}
