import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `SessionUpdate` keeps the frame's messages once with indices; the copying accessors and the
/// initializer of copies still say the same thing.
@Suite struct SessionUpdateStorageTests {
  static func message(_ offset: Int) -> HistoryMessageV0_5_0 {
    HistoryMessageV0_5_0(
      uuid: "u-\(offset)", role: .assistant, text: "m", timestamp: nil, provider: "claude", sessionId: "s",
      offset: offset)
  }
  static let a = message(1)
  static let b = message(2)
  static let c = message(3)
  static let junk = message(-1)

  @Test func indicesNameTheInsertedAndReplacedMessages() {
    let update = SessionUpdate(
      sessionId: "s", messages: .v0_5_0([Self.a, Self.junk, Self.b, Self.c]), insertIndices: [0, 3],
      replaceIndices: [2], cursor: .offset(4, signature: nil))
    #expect(update.insert == .v0_5_0([Self.a, Self.c]))
    #expect(update.replace == .v0_5_0([Self.b]))
  }

  @Test func equalityIsAboutWhatTheUpdateSaysNotHowItIsStored() {
    let indexed = SessionUpdate(
      sessionId: "s", messages: .v0_5_0([Self.a, Self.junk, Self.b]), insertIndices: [0], replaceIndices: [2],
      cursor: .lastSeq(2), dropped: 1)
    let copied = SessionUpdate(
      sessionId: "s", insert: .v0_5_0([Self.a]), replace: .v0_5_0([Self.b]), cursor: .lastSeq(2), dropped: 1)
    #expect(indexed == copied)
    #expect(indexed.hashValue == copied.hashValue)
    let swapped = SessionUpdate(
      sessionId: "s", insert: .v0_5_0([Self.b]), replace: .v0_5_0([Self.a]), cursor: .lastSeq(2), dropped: 1)
    #expect(indexed != swapped)
  }

  @Test func copiesOfOneKindAreStoredTogether() {
    let update = SessionUpdate(
      sessionId: "s", insert: .v0_5_0([Self.a]), replace: .v0_5_0([Self.b, Self.c]), cursor: .lastSeq(1))
    #expect(update.insert == .v0_5_0([Self.a]) && update.replace == .v0_5_0([Self.b, Self.c]))
    #expect(update.messages.count == 3)
    #expect(update.insert.encodedMessages.count == 1)
  }

  /// An action delivering an update fits 128 bytes, which the optimizer copies in line: at 129 (the
  /// 0.4.0 `gap` in line), every history frame's update was copied into its action by two calls to
  /// `memcpy` (SessionUpdate.swift, `GapBox`). A boxed gap still reads back what was set, a copy of
  /// the update shares it, and setting the copy's leaves the original's.
  @Test func deliveringActionFitsInLineCopies() {
    #expect(MemoryLayout<ClientAction>.size <= 128)
    #expect(MemoryLayout<SessionUpdate>.size <= 120)
    let gap = HistoryGap(requestedLastSeq: 9, minAvailableSeq: 1, reason: .clientAhead)
    var update = SessionUpdate(sessionId: "s", cursor: nil, gap: gap)
    var copy = update
    copy.gap = HistoryGap(requestedLastSeq: 2, minAvailableSeq: 1, reason: .clientAhead)
    #expect(update.gap == gap && copy.gap?.requestedLastSeq == 2)
    update.gap = nil
    #expect(update.gap == nil && copy.gap?.requestedLastSeq == 2)
  }

  /// `purge`, `cursor`, `isComplete`, `gap` and `dropped` live in one internal value: each reads
  /// back what the initializer or a setter gave it, changes that one member only, and counts in `==`.
  @Test func membersKeptTogetherReadBackAndCountInEquality() {
    let gap = HistoryGap(requestedLastSeq: 9, minAvailableSeq: 1, reason: .clientAhead)
    let built = SessionUpdate(
      sessionId: "s", purge: .from(3), messages: .v0_5_0([Self.a]), insertIndices: [0], replaceIndices: [],
      cursor: .offset(4, signature: "4:x"), isComplete: false, gap: gap, dropped: 2)
    #expect(built.purge == .from(3) && built.cursor == .offset(4, signature: "4:x"))
    #expect(!built.isComplete && built.gap == gap && built.dropped == 2)
    var update = SessionUpdate(sessionId: "s", insert: .v0_5_0([Self.a]), cursor: nil)
    #expect(
      update.purge == nil && update.cursor == nil && update.isComplete && update.gap == nil && update.dropped == 0)
    update.purge = .from(3)
    update.cursor = .offset(4, signature: "4:x")
    update.isComplete = false
    update.gap = gap
    update.dropped = 2
    #expect(update == built)
    #expect(update.hashValue == built.hashValue)
    #expect(update.insert == .v0_5_0([Self.a]) && update.sessionId == "s")
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

  /// `print` shows the nine public members, not the internal storage.
  @Test func membersKeptTogetherPrintAsPublicMembers() {
    var update = SessionUpdate(sessionId: "s", cursor: nil)
    update.dropped += 3
    #expect(update.dropped == 3)
    let printed = String(describing: SessionUpdate(sessionId: "s", cursor: nil))
    #expect(
      printed
        == "SessionUpdate(sessionId: \"s\", purge: nil, messages: VCProtoConnection.SessionMessages.v0_5_0([]), "
        + "insertIndices: [], replaceIndices: [], cursor: nil, isComplete: true, gap: nil, dropped: 0)")
  }

  /// What `buffer` held, in order; the buffer is then empty.
  static func drained(_ buffer: inout ClientActions) -> [ClientAction] {
    var actions: [ClientAction] = []
    buffer.drain { actions.append($0) }
    return actions
  }

  /// `handle(_:now:into:)` appends exactly what `handle(_:now:)` returns, after what the buffer held.
  @Test func bufferTakingHandleAppendsTheSameActions() throws {
    let events: [ClientEvent] = [
      .start, .transportOpened(TransportID(1), clientNonce: "00"),
      .frameReceived(
        .frame(
          "hello", ["message": "hi", "version": "0.5.0", "auth_version": 1, "instructions": "send connect"])),
      .frameReceived(
        .frame("connected", ["message": "ok", "session_id": .null, "negotiated_protocol_version": "0.5.0"])),
      .subscribe(sessionId: "s", cursor: nil),
      .received(
        .text(
          #"{"type":"session_history","session_id":"s","messages":[{"uuid":"u","role":"user","text":"t","#
            + #""timestamp":null,"provider":"claude","session_id":"s","offset":1}],"next_offset":3,"#
            + #""end_of_file":true,"file_signature":null}"#)),
    ]
    var returning = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
    var appending = ClientEngine(ClientConfiguration(apiKey: "k", allowAuthV1: true))
    // The buffer holds an action of the caller's before each event, which the engine leaves alone.
    var buffer = ClientActions(capacity: 1)
    for event in events {
      let returned = try returning.handle(event, now: 5)
      buffer.append(.openTransport(TransportID(1)))
      try appending.handle(event, now: 5, into: &buffer)
      #expect(Self.drained(&buffer) == [.openTransport(TransportID(1))] + returned, "\(event.name)")
    }
    #expect(appending.state == .ready)
    buffer.append(.openTransport(TransportID(1)))
    #expect(throws: IllegalEvent.self) {
      try appending.handle(.transportOpened(appending.currentTransport!, clientNonce: "00"), now: 6, into: &buffer)
    }
    #expect(Self.drained(&buffer) == [.openTransport(TransportID(1))])
  }
}
