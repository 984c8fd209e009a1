import Testing
import VCProto

@testable import VCProtoTestSupport

/// The fuzz engine target's request invariant matches ids by exact bytes, as the engine does: an
/// answer for a canonically equivalent spelling of a waiting id is not that request's answer.
@Suite struct ExerciserRequestCheckTests {
  @Test func equivalentIdIsNotTheWaitingRequest() {
    var waiting = ["\u{E9}"]
    let broken = EngineExerciser.checkRequests(
      event: .timerFired(.heartbeat),
      actions: [.deliver(.answered(requestId: "e\u{301}", message: .unknown(JSONObject())))],
      waiting: &waiting)
    #expect(broken != nil)
    #expect(waiting == ["\u{E9}"])
  }

  @Test func sameBytesEndTheWaitingRequest() {
    var waiting = ["e\u{301}", "\u{E9}"]
    let broken = EngineExerciser.checkRequests(
      event: .timerFired(.heartbeat),
      actions: [.deliver(.requestFailed(requestId: "\u{E9}", reason: .timeout))], waiting: &waiting)
    #expect(broken == nil)
    #expect(waiting.count == 1 && waiting[0].utf8.elementsEqual("e\u{301}".utf8))
  }
}
