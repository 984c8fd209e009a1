import Testing

@testable import VCProtoConnection
@testable import VCProtoCore

/// A history message of another session is dropped (0.4.0 on, STANDARDS.md#exact-identifiers): "another" by the ids'
/// exact scalars, as the engine compares every session id (``SessionKey``), never by `String`'s
/// canonical equivalence.
@Suite struct HistorySessionScalarsTests {
  @Test func aMessageNamingAnEquivalentButDifferentIdIsDropped() throws {
    let (composed, decomposed) = ("caf\u{e9}", "cafe\u{301}")
    #expect(composed == decomposed, "String's == takes them for one")
    var engine = try ClientValidationBoundaryTests.ready()
    _ = try engine.handle(.subscribe(sessionId: composed, cursor: nil), now: 1)
    func message(_ session: String, _ offset: Int) -> String {
      #"{"session_id":"\#(session)","uuid":"u\#(offset)","role":"assistant","text":"hi","timestamp":null,"#
        + #""provider":"claude","offset":\#(offset)}"#
    }
    let text =
      #"{"type":"session_history","session_id":"\#(composed)","messages":[\#(message(composed, 4)),"#
      + #"\#(message(decomposed, 6))],"next_offset":7,"end_of_file":true,"file_signature":"7:u"}"#
    let actions = try engine.handle(.received(.text(text)), now: 2)
    guard case .deliver(.sessionUpdate(let update))? = actions.first, case .v0_5_0(let inserted) = update.insert
    else {
      Issue.record("expected a 0.5.0 session update, got \(actions)")
      return
    }
    #expect(inserted.map(\.offset) == [4])
    #expect(update.dropped == 1)
  }
}
