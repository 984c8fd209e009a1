import Foundation
import Testing
import VCProto

@testable import VCProtoCLI

/// The version of each connection, from its handshake (STANDARDS.md#negotiation; versions.md section 6
/// of the reference: hello.version is the ceiling, connected or the refusal decides).
@Suite struct ConnectionVersionTests {
  static func hello(_ version: String) -> (String, String) {
    ("<", #"{"type":"hello","message":"m","version":"\#(version)","auth_version":1,"instructions":"i"}"#)
  }
  static func connect(_ version: String?) -> (String, String) {
    (
      ">",
      version.map { #"{"type":"connect","api_key":"k","protocol_version":"\#($0)"}"# }
        ?? #"{"type":"connect","api_key":"k"}"#
    )
  }
  static func connected(_ version: String) -> (String, String) {
    (
      "<",
      #"{"type":"connected","message":"Session registered","session_id":null,"negotiated_protocol_version":"\#(version)"}"#
    )
  }
  static func refusal(required: String = "0.4.0", received: String) -> (String, String) {
    (
      "<",
      #"{"type":"error","code":"unsupported_protocol_version","required":"\#(required)","received":"\#(received)","message":"Client is too old; upgrade required"}"#
    )
  }

  /// Feeds frames; returns the version after each and the codes (with pointers) each caused.
  func run(_ frames: [(String, String)], fallback: String = "0.2.0", explicit: Bool = false) -> [(String, [String])] {
    var tracker = NegotiationTracker(fallback: ProtocolVersion(rawValue: fallback)!, explicit: explicit)
    return frames.map { frame in
      let object = try! JSONReader().parse(frame.1).objectValue!
      let findings = tracker.receive(frame.0 == ">" ? .clientToServer : .serverToClient, object)
      return (tracker.version.rawValue, findings.map { "\($0.code.rawValue) \($0.pointer)" })
    }
  }

  @Test func versionFollowsTheHandshake() {
    // iOS against the default server.
    #expect(
      run([Self.hello("0.5.0"), Self.connect("0.5.0"), Self.connected("0.5.0")]).map(\.0) == [
        "0.4.0", "0.5.0", "0.5.0",
      ])
    // Android: nothing announced, the floor.
    #expect(
      run([Self.hello("0.5.0"), Self.connect(nil), Self.connected("0.4.0")]).map(\.0) == ["0.4.0", "0.4.0", "0.4.0"])
    // A 0.2.0 server and a 0.3.0 server negotiate nothing.
    #expect(run([Self.hello("0.2.0"), Self.connect("0.5.0")], fallback: "0.5.0").map(\.0) == ["0.2.0", "0.2.0"])
    #expect(run([Self.hello("0.3.0"), Self.connect(nil)]).map(\.0) == ["0.3.0", "0.3.0"])
    // A capture without the hello has no handshake: --protocol stays, and nothing is compared.
    let headless = run([Self.connect("0.5.0"), Self.connected("0.2.0")], fallback: "0.4.0")
    #expect(headless.map(\.0) == ["0.4.0", "0.4.0"] && headless.allSatisfy { $0.1.isEmpty })
    // A hello of an unknown version still starts a handshake: connected decides.
    #expect(run([Self.hello("0.9.0"), Self.connect(nil), Self.connected("0.5.0")]).last?.0 == "0.5.0")
    // Without a handshake: the fallback (--protocol).
    #expect(
      run([(">", #"{"type":"ping"}"#), ("<", #"{"type":"pong"}"#)], fallback: "0.4.0").map(\.0) == ["0.4.0", "0.4.0"])
    // --protocol given: the assumed floor of a negotiating server.
    #expect(
      run([Self.hello("0.5.0"), Self.connect(nil)], fallback: "0.5.0", explicit: true).map(\.0) == ["0.5.0", "0.5.0"])
    // Floor 0.5.0 under ceiling 0.4.0 still gives silent clients the floor (STANDARDS.md#version-algorithm); a
    // --protocol that is no floor leaves the default floor.
    #expect(
      run([Self.hello("0.4.0"), Self.connect(nil)], fallback: "0.5.0", explicit: true).map(\.0) == ["0.5.0", "0.5.0"])
    #expect(
      run([Self.hello("0.5.0"), Self.connect(nil)], fallback: "0.2.0", explicit: true).map(\.0) == ["0.4.0", "0.4.0"])
    // A refused client speaks its own version; the refusal is the server's.
    #expect(
      run([Self.hello("0.5.0"), Self.connect("0.3.0-rc1"), Self.refusal(received: "0.3.0-rc1")]).map(\.0) == [
        "0.4.0", "0.3.0", "0.4.0",
      ])
    // Each hello starts a new connection.
    let two = run([Self.hello("0.5.0"), Self.connect("0.5.0"), Self.connected("0.5.0"), Self.hello("0.5.0")])
    #expect(two.last?.0 == "0.4.0")
  }

  @Test func handshakesTheServerCanProduceAreClean() {
    // Every announcement against every ceiling, with the version some floor gives (the outcome table).
    let cases: [(String, String?, String)] = [
      ("0.5.0", "0.5.0", "0.5.0"), ("0.4.0", "0.5.0", "0.4.0"), ("0.5.0", nil, "0.4.0"), ("0.5.0", nil, "0.3.0"),
      ("0.5.0", nil, "0.5.0"), ("0.5.0", "0.3.0", "0.3.0"), ("0.5.0", "0.4.0", "0.4.0"), ("0.5.0", "0.4.1", "0.3.0"),
      ("0.5.0", "0.4.1", "0.5.0"), ("0.5.0", "0.6.0", "0.5.0"), ("0.4.0", "1.0.0", "0.4.0"), ("0.5.0", "abc", "0.5.0"),
    ]
    for (ceiling, announced, negotiated) in cases {
      let result = run([Self.hello(ceiling), Self.connect(announced), Self.connected(negotiated)])
      #expect(result.allSatisfy { $0.1.isEmpty }, "\(ceiling) \(announced ?? "-") \(negotiated)")
      #expect(result.last?.0 == negotiated)
    }
    // A correct refusal: parseable and below 0.4.0, required 0.4.0, received as sent.
    for announced in ["0.3.0", "0.2.0", "0.3.9-rc1"] {
      let result = run([Self.hello("0.5.0"), Self.connect(announced), Self.refusal(received: announced)])
      #expect(result.allSatisfy { $0.1.isEmpty }, "\(announced)")
    }
  }

  /// Every handshake of the negotiation vectors (the reference's outcome table) checks clean, and the
  /// same handshake with another version in `connected` is a mismatch unless some floor gives it.
  @Test func everyOutcomeOfTheTableIsAPossibleHandshake() throws {
    let data = try Data(contentsOf: packageRoot.appendingPathComponent("Vectors/negotiation/cases.json"))
    let cases = try #require(try JSONReader().parse(Array(data)).arrayValue)
    var checked = 0
    for c in cases where c["server"]?["legacy"] == nil {
      let id = c["id"]?.stringValue ?? "?"
      let expect = try #require(c["expect"])
      let hello = Self.hello(try #require(expect["hello_version"]?.stringValue))
      let connect = Self.connect(c["client"]?["protocol_version"]?.stringValue)
      let last: (String, String)
      if let refusal = expect["refusal"] {
        last = ("<", refusal.jsonText)
      } else {
        last = Self.connected(try #require(expect["negotiated_protocol_version"]?.stringValue))
      }
      let result = run([hello, connect, last])
      #expect(result.allSatisfy { $0.1.isEmpty }, "\(id): \(result)")
      checked += 1
      // A client the default server refuses (parseable, below 0.4.0) gets at most 0.3.0 from any floor
      // (floor 0.3.0 does not refuse it): 0.5.0 in connected is impossible.
      if expect["refusal"] != nil {
        #expect(
          run([hello, connect, Self.connected("0.5.0")]).last?.1 == [
            "negotiation_mismatch /negotiated_protocol_version"
          ], "\(id)")
      }
    }
    #expect(checked == 99)
  }

  @Test func impossibleHandshakesAreMismatches() {
    let mismatch = { (frames: [(String, String)]) in self.run(frames).last?.1 ?? [] }
    #expect(
      mismatch([Self.hello("0.4.0"), Self.connect("0.5.0"), Self.connected("0.5.0")])
        == ["negotiation_mismatch /negotiated_protocol_version"])
    // 0.4.0 is never refused, 0.3.0 never negotiated for a client announcing 0.5.0.
    #expect(
      mismatch([Self.hello("0.5.0"), Self.connect("0.5.0"), Self.connected("0.3.0")])
        == ["negotiation_mismatch /negotiated_protocol_version"])
    #expect(
      mismatch([Self.hello("0.5.0"), Self.connect("0.4.0"), Self.refusal(received: "0.4.0")])
        == ["negotiation_mismatch /code"])
    #expect(
      mismatch([Self.hello("0.5.0"), Self.connect(nil), Self.refusal(received: "")]) == ["negotiation_mismatch /code"])
    #expect(
      mismatch([Self.hello("0.5.0"), Self.connect("0.3.0"), Self.refusal(required: "0.5.0", received: "0.3")])
        == ["negotiation_mismatch /required", "negotiation_mismatch /received"])
    #expect(mismatch([Self.hello("0.5.0"), Self.refusal(received: "0.3.0")]) == ["negotiation_mismatch /code"])
    // A vcproto 0.2.0 server confirms 0.2.0 only.
    #expect(
      mismatch([Self.hello("0.2.0"), Self.connect(nil), Self.connected("0.4.0")])
        == ["negotiation_mismatch /negotiated_protocol_version"])
  }

  @Test func unknownVersionsWarnAndFallBack() {
    let result = run([Self.hello("0.9.0"), Self.connect(nil), Self.hello("0.9.0")], fallback: "0.2.0")
    #expect(result.map(\.0) == ["0.2.0", "0.2.0", "0.2.0"])
    #expect(result[0].1 == ["unknown_protocol_version /version"])
    #expect(
      run([Self.hello("0.5.0"), Self.connect("0.9.0"), Self.connected("0.9.0")]).last?.1 == [
        "unknown_protocol_version /negotiated_protocol_version"
      ])
  }
}

/// The shipped samples of today's protocol, end to end through the built `vcproto`.
@Suite struct VersionedSampleTests {
  func validate(_ path: String) throws -> (status: Int32, records: [JSONValue], summary: JSONValue?) {
    let r = try EndToEndTests().run(["validate", "--format", "json", path])
    let lines = try r.out.split(separator: "\n").map { try JSONReader().parse(String($0)) }
    return (r.status, lines.filter { $0["summary"] == nil }, lines.last?["summary"])
  }

  @Test func conversationsOfTodayValidateClean() throws {
    for (path, frames) in [("Samples/conversation-0.5.0.jsonl", 44), ("Samples/conversation-0.4.0.jsonl", 38)] {
      let r = try validate(path)
      #expect(r.status == 0, "\(path)")
      #expect(r.records.isEmpty, "\(path): \(r.records)")
      #expect(r.summary?["frames"]?.intValue == frames, "\(path)")
    }
    // The same 0.5.0 conversation checked as 0.4.0 (no handshake) is not clean: the version really
    // comes from the handshake.
    let text = try String(
      contentsOf: packageRoot.appendingPathComponent("Samples/conversation-0.5.0.jsonl"), encoding: .utf8)
    let headless = text.split(separator: "\n").dropFirst(3).joined(separator: "\n")
    let r = try EndToEndTests().run(["validate", "--protocol", "0.4.0", "-"], stdin: Data(headless.utf8))
    #expect(r.status == 1)
  }

  @Test func refusedOldClientIsACorrectRefusal() throws {
    let r = try validate("Samples/refused-0.3.0.jsonl")
    #expect(r.status == 0)
    #expect(r.records.isEmpty)
  }

  /// Each planted fault, at its line and pointer with its code (the comments in
  /// tools/make_cli_samples.py say what the real backend does with each frame).
  @Test func faultyCaptureOfTodayReportsEachPlantedFault() throws {
    let r = try validate("Samples/faulty-0.5.0.jsonl")
    #expect(r.status == 1)
    func found(_ severity: String) -> Set<String> {
      Set(
        r.records.filter { $0["severity"]?.stringValue == severity }.map {
          "\($0["line"]?.intValue ?? 0) \($0["pointer"]?.stringValue ?? "?") \($0["code"]?.stringValue ?? "?")"
        })
    }
    #expect(
      found("error") == [
        "4 /from_offset invalid_value", "5 /file_signature_seen wrong_type",
        // a 0.4.0-shaped session_history on the 0.5.0 channel
        "6 /next_offset missing_field", "6 /end_of_file missing_field", "6 /file_signature missing_field",
        "6 /messages/0/offset missing_field",
        "7 /messages/1/offset missing_field", "8 /file_replaced invalid_value", "9 /provider invalid_value",
        "10 /aborted invalid_value", "11 /type not_in_version",
        // the 0.4.0 connection: the same capture, a second hello
        "15 /last_message_id invalid_value", "16 /last_seq wrong_type",
        "19 /negotiated_protocol_version negotiation_mismatch", "22 /code negotiation_mismatch",
      ])
    #expect(
      found("warning") == [
        "6 /first_seq unexpected_field", "6 /last_seq unexpected_field", "6 /next_seq unexpected_field",
        "6 /is_complete unexpected_field", "6 /gap unexpected_field", "6 /messages/0/seq unexpected_field",
      ])
  }
}
