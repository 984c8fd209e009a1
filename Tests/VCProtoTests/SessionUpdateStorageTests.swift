import Testing

@testable import VCProto

/// `SessionUpdate` keeps the frame's messages once with indices; the copying accessors and the
/// initializer of copies still say the same thing.
@Suite struct SessionUpdateStorageTests {
  static let a = JSONObject.frame("m", ["offset": 1])
  static let b = JSONObject.frame("m", ["offset": 2])
  static let c = JSONObject.frame("m", ["offset": 3])

  @Test func indicesNameTheInsertedAndReplacedMessages() {
    let update = SessionUpdate(
      sessionId: "s", messages: [.object(Self.a), "junk", .object(Self.b), .object(Self.c)], insertIndices: [0, 3],
      replaceIndices: [2], cursor: .offset(4, signature: nil))
    #expect(update.insert == [Self.a, Self.c])
    #expect(update.replace == [Self.b])
  }

  @Test func equalityIsAboutWhatTheUpdateSaysNotHowItIsStored() {
    let indexed = SessionUpdate(
      sessionId: "s", messages: [.object(Self.a), "junk", .object(Self.b)], insertIndices: [0], replaceIndices: [2],
      cursor: .lastSeq(2), dropped: 1)
    let copied = SessionUpdate(sessionId: "s", insert: [Self.a], replace: [Self.b], cursor: .lastSeq(2), dropped: 1)
    #expect(indexed == copied)
    #expect(indexed.hashValue == copied.hashValue)
    let swapped = SessionUpdate(sessionId: "s", insert: [Self.b], replace: [Self.a], cursor: .lastSeq(2), dropped: 1)
    #expect(indexed != swapped)
  }

  @Test func settingTheCopiesReplacesWhatIsStored() {
    var update = SessionUpdate(sessionId: "s", insert: [Self.a], cursor: .lastSeq(1))
    update.replace = [Self.b, Self.c]
    #expect(update.insert == [Self.a] && update.replace == [Self.b, Self.c])
    update.insert = []
    #expect(update.insert.isEmpty && update.replace == [Self.b, Self.c])
    #expect(update.messages.count == 2)
  }

  /// `purge`, `cursor`, `isComplete`, `gap` and `dropped` live in one internal value: each reads
  /// back what the initializer or a setter gave it, changes that one member only, and counts in `==`.
  @Test func membersKeptTogetherReadBackAndCountInEquality() {
    let gap = JSONObject.frame("gap", ["reason": "client_ahead"])
    let built = SessionUpdate(
      sessionId: "s", purge: .from(3), messages: [.object(Self.a)], insertIndices: [0], replaceIndices: [],
      cursor: .offset(4, signature: "4:x"), isComplete: false, gap: gap, dropped: 2)
    #expect(built.purge == .from(3) && built.cursor == .offset(4, signature: "4:x"))
    #expect(!built.isComplete && built.gap == gap && built.dropped == 2)
    var update = SessionUpdate(sessionId: "s", insert: [Self.a], cursor: nil)
    #expect(
      update.purge == nil && update.cursor == nil && update.isComplete && update.gap == nil && update.dropped == 0)
    update.purge = .from(3)
    update.cursor = .offset(4, signature: "4:x")
    update.isComplete = false
    update.gap = gap
    update.dropped = 2
    #expect(update == built)
    #expect(update.hashValue == built.hashValue)
    #expect(update.insert == [Self.a] && update.sessionId == "s")
    let changes: [(inout SessionUpdate) -> Void] = [
      { $0.purge = .all }, { $0.cursor = .offset(5, signature: "4:x") }, { $0.isComplete = true },
      { $0.gap = nil }, { $0.dropped = 3 },
    ]
    for (number, change) in changes.enumerated() {
      var changed = built
      change(&changed)
      #expect(changed != built, "change \(number)")
    }
  }

  /// A member kept in ``SessionUpdate/State`` changes in place (the members of the `JSONObject` in
  /// `gap` keep their storage), and `print` shows the nine public members, not the internal storage.
  @Test func membersKeptTogetherChangeInPlaceAndPrintAsBefore() {
    var update = SessionUpdate(sessionId: "s", insert: [], cursor: nil, gap: JSONObject.frame("gap", ["n": 1]))
    let before = update.gap?.members.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    update.gap?["n"] = 2
    update.dropped += 3
    #expect(update.gap?["n"] == 2 && update.dropped == 3)
    // The same member storage: a getter and a setter would have copied it before the change.
    #expect(update.gap?.members.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == before)
    let printed = String(describing: SessionUpdate(sessionId: "s", insert: [], cursor: nil))
    #expect(
      printed
        == "SessionUpdate(sessionId: \"s\", purge: nil, messages: [], insertIndices: [], replaceIndices: [], "
        + "cursor: nil, isComplete: true, gap: nil, dropped: 0)")
  }

  /// `handle(_:now:into:)` appends exactly what `handle(_:now:)` returns, after what the buffer held.
  @Test func bufferTakingHandleAppendsTheSameActions() throws {
    let events: [ClientEvent] = [
      .start, .transportOpened(TransportID(1), clientNonce: "00"),
      .frameReceived(.frame("hello", ["version": "0.5.0", "auth_version": 1])),
      .frameReceived(.frame("connected", ["negotiated_protocol_version": "0.5.0"])),
      .subscribe(sessionId: "s", cursor: nil),
      .frameReceived(
        .frame(
          "session_history",
          ["session_id": "s", "messages": [.object(Self.a), .object(Self.b)], "next_offset": 3, "end_of_file": true])),
    ]
    var returning = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
    var appending = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
    var buffer: [ClientAction] = [.openTransport(TransportID(1))]
    for event in events {
      let returned = try returning.handle(event, now: 5)
      buffer.removeAll(keepingCapacity: true)
      buffer.append(.openTransport(TransportID(1)))
      try appending.handle(event, now: 5, into: &buffer)
      #expect(buffer == [.openTransport(TransportID(1))] + returned, "\(event.name)")
    }
    #expect(appending.state == .ready)
    buffer = [.openTransport(TransportID(1))]
    #expect(throws: IllegalEvent.self) {
      try appending.handle(.transportOpened(appending.currentTransport!, clientNonce: "00"), now: 6, into: &buffer)
    }
    #expect(buffer == [.openTransport(TransportID(1))])
  }
}
