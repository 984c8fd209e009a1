import Testing

/// Issue 29's one-frame crash, end to end: a five-line 0.4.0 capture (hello, connect, connected,
/// subscribe, a `session_history` whose `client_ahead` gap has `next_seq` -9223372036854775808) made
/// `vcproto validate` die with "arithmetic overflow" in the conversation observer's engine. It is a
/// finding: `next_seq` is at least 1 (seq is 1-based).
@Suite struct ClientAheadCaptureTests {
  static func capture(nextSeq: String) -> String {
    [
      #"{"type":"hello","message":"Welcome to voice-code backend","version":"0.4.0","auth_version":1,"instructions":"Send connect message with api_key"}"#,
      #"{"type":"connect","api_key":"\#(fakeKey)"}"#,
      #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.4.0"}"#,
      #"{"type":"subscribe","session_id":"s","last_seq":40}"#,
      #"{"type":"session_history","session_id":"s","messages":[],"first_seq":null,"last_seq":null,"next_seq":\#(nextSeq),"is_complete":true,"gap":{"requested_last_seq":40,"min_available_seq":1,"reason":"client_ahead"}}"#,
    ].joined(separator: "\n") + "\n"
  }

  @Test(arguments: ["\(Int64.min)", "-1", "0"])
  func aNextSeqBelowOneIsAFindingNotACrash(nextSeq: String) {
    let url = temporaryFile(Self.capture(nextSeq: nextSeq), name: "client-ahead.jsonl")
    let r = runCommand(["validate", url.path])
    #expect(r.status == 1, "\(r.out)\(r.err)")
    #expect(r.out.contains(":5: session_history /next_seq: error: "), "\(r.out)")
    #expect(r.out.contains("[invalid_value]"), "\(r.out)")
    #expect(r.out.contains("FAIL \(url.path): 5 frames, 4 valid, 1 invalid; 1 error, 0 warnings"), "\(r.out)")
  }

  @Test func aValidNextSeqIsClean() {
    let url = temporaryFile(Self.capture(nextSeq: "30"), name: "client-ahead.jsonl")
    let r = runCommand(["validate", url.path])
    #expect(r.status == 0, "\(r.out)\(r.err)")
    #expect(r.out.contains("OK \(url.path): 5 frames, 5 valid, 0 invalid; 0 errors"), "\(r.out)")
  }

  /// An observed `subscribe` with a negative `last_seq` is a finding and sets no cursor: the
  /// continuation after the incomplete reply resumes from 0 (the server refuses the negative one
  /// and the client's engine would have asked from the start), so `last_seq` 0 is no
  /// `continuation_mismatch`.
  @Test func aNegativeObservedCursorIsAFindingAndNoCursor() {
    let lines = [
      #"{"type":"hello","message":"Welcome to voice-code backend","version":"0.4.0","auth_version":1,"instructions":"Send connect message with api_key"}"#,
      #"{"type":"connect","api_key":"\#(fakeKey)"}"#,
      #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"0.4.0"}"#,
      #"{"type":"subscribe","session_id":"s","last_seq":-5}"#,
      #"{"type":"session_history","session_id":"s","messages":[],"first_seq":null,"last_seq":null,"next_seq":1,"is_complete":false,"gap":null}"#,
      #"{"type":"subscribe","session_id":"s","last_seq":0}"#,
    ]
    let url = temporaryFile(lines.joined(separator: "\n") + "\n", name: "negative-cursor.jsonl")
    let r = runCommand(["validate", url.path])
    #expect(r.status == 1, "\(r.out)\(r.err)")
    #expect(r.out.contains(":4: subscribe /last_seq: error: -5 is below the minimum 0 [invalid_value]"), "\(r.out)")
    #expect(!r.out.contains("continuation_mismatch"), "\(r.out)")
  }
}
