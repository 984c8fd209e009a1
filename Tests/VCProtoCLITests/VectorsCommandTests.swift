import Foundation
import Testing
import VCProto

@testable import VCProtoCLI

@Suite struct VectorsCommandTests {
  func folder() throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("vcproto-vectors-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    return root
  }

  func write(_ text: String, to root: URL, _ path: String) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  /// The repository's own vectors: every kind runs and passes against the library.
  @Test(.tags(.slow), .enabled(if: slowSuitesRun)) func repositoryVectorsAllKindsPass() throws {
    let r = runCommand(["vectors", packageRoot.appendingPathComponent("Vectors").path])
    let lines = r.out.split(separator: "\n").map(String.init)
    for kind in ["messages", "envelope", "auth", "negotiation", "sessions"] {
      #expect(lines.contains { $0.hasPrefix("PASS \(kind)/") }, "no \(kind) vectors ran")
    }
    #expect(!r.out.contains("skip "))
    let failures = lines.filter { $0.hasPrefix("FAIL") }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    #expect(r.status == 0)
    let passed = lines.filter { $0.hasPrefix("PASS ") }.count
    #expect(lines.last == "\(passed) passed, 0 failed")
    // Named as `conformance` names its tests: message vectors with their version folder, so every
    // name is printed once and the two commands' names are the same.
    let names = lines.filter { $0.hasPrefix("PASS ") }.map { String($0.dropFirst("PASS ".count)) }
    let printed = Set(names)
    for name in ["messages/0.2.0/ack.valid", "messages/0.5.0/ack.valid", "auth/v2.basic"] {
      let found = printed.contains(name)
      #expect(found, "\(name) not printed")
    }
    let unversioned = printed.contains("messages/ack.valid")
    #expect(!unversioned)
    #expect(printed.count == names.count, "names printed more than once")
    let conformance = ConformanceTestCase.discover(root: packageRoot.appendingPathComponent("Vectors").path)
    let same = printed == Set(conformance.tests.map(\.name))
    #expect(same, "vectors and conformance name the vectors differently")
  }

  /// The same id in two version folders: two lines, each naming its folder; a vector without an id
  /// is named by its file and index in the same folder.
  @Test func versionFoldersAreInTheNames() throws {
    let root = try folder()
    let ping = #"{"id": "ping.valid", "direction": "client_to_server", "frame": "{\"type\":\"ping\"}", "valid": true"#
    try write("[\(ping), \"protocol_version\": \"0.2.0\"}]", to: root, "messages/0.2.0/ping.json")
    try write("[\(ping), \"protocol_version\": \"0.5.0\"}]", to: root, "messages/0.5.0/ping.json")
    try write(
      #"[{"frame": "{\"type\":\"ping\"}", "valid": false, "protocol_version": "0.5.0"}, {"frame": "{}", "valid": false}]"#,
      to: root, "messages/0.5.0/noid.json")
    let r = runCommand(["vectors", root.path])
    #expect(r.status == 1)
    #expect(
      r.out == """
        PASS messages/0.2.0/ping.valid
        FAIL messages/0.5.0/noid.json[0]: expected invalid, the peer says valid
        FAIL messages/0.5.0/noid.json[1]: bad vector: the vector has no "protocol_version"
        PASS messages/0.5.0/ping.valid
        2 passed, 2 failed

        """)
  }

  @Test func messageVectorsPassFailLinesAndSkippedFolders() throws {
    let root = try folder()
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("extra"), withIntermediateDirectories: true)
    let vectors = """
      [
        {"id": "ping-ok", "description": "", "direction": "client_to_server", "protocol_version": "0.2.0",
         "frame": "{\\"type\\":\\"ping\\"}", "valid": true},
        {"id": "size-zero", "description": "", "direction": "client_to_server", "protocol_version": "0.2.0",
         "frame": {"type": "set_max_message_size", "size_kb": 0}, "valid": false,
         "findings": [{"pointer": "/size_kb", "code": "invalid_value"}]},
        {"id": "wrong-expectation", "description": "", "direction": null, "protocol_version": "0.2.0",
         "frame": "{\\"type\\":\\"pong\\"}", "valid": false},
        {"id": "wrong-finding", "description": "", "direction": "client_to_server", "protocol_version": "0.2.0",
         "frame": "{\\"type\\":\\"set_max_message_size\\"}", "valid": false,
         "findings": [{"pointer": "/size_kb", "code": "wrong_type"}]}
      ]
      """
    try write(vectors, to: root, "messages/basic.json")
    let r = runCommand(["vectors", root.path])
    #expect(r.status == 1)
    #expect(
      r.out == """
        skip extra/: not a known kind of vector
        PASS messages/ping-ok
        PASS messages/size-zero
        FAIL messages/wrong-expectation: expected invalid, the peer says valid
        FAIL messages/wrong-finding: missing findings wrong_type /size_kb; unexpected findings missing_field /size_kb
        2 passed, 2 failed

        """)
    #expect(runCommand(["vectors", root.appendingPathComponent("nope").path]).status == 2)
    let empty = runCommand(["vectors", root.appendingPathComponent("extra").path])
    #expect(empty.status == 2)
    #expect(empty.err.contains("no vectors in"))
  }

  /// A vectors file that is not JSON says why, where (the reader's reason and byte offset), for
  /// `vectors` and for `conformance`'s discovery alike; one that is JSON but no array says so.
  @Test func malformedVectorFilesSayWhy() throws {
    let root = try folder()
    try write(#"[{"id":"x",}]"#, to: root, "messages/0.5.0/trailing.json")
    try write(#"{"id":"x"}"#, to: root, "messages/0.5.0/object.json")
    let r = runCommand(["vectors", root.path])
    #expect(r.status == 1)
    #expect(
      r.out == """
        FAIL messages/0.5.0/object.json: not a JSON array of vectors
        FAIL messages/0.5.0/trailing.json: not a JSON array of vectors: trailing comma in an object at byte 11
        0 passed, 2 failed

        """)
    let found = ConformanceTestCase.discover(root: root.path)
    #expect(
      found.problems.sorted() == [
        "messages/0.5.0/object.json: not a JSON array of vectors",
        "messages/0.5.0/trailing.json: not a JSON array of vectors: trailing comma in an object at byte 11",
      ])
  }

  /// Each kind's runner fails a vector whose expectation was tampered with, saying what differed:
  /// the runners really compare, they do not just load the files.
  @Test func tamperedVectorsOfEveryKindFail() throws {
    let root = try folder()
    let vectors = packageRoot.appendingPathComponent("Vectors")
    func load(_ path: String) throws -> [[String: Any]] {
      let data = try Data(contentsOf: vectors.appendingPathComponent(path))
      return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }
    func pick(_ list: [[String: Any]], _ id: String) throws -> [String: Any] {
      try #require(list.first { $0["id"] as? String == id }, "vector \(id) is gone")
    }
    func save(_ list: [[String: Any]], _ path: String) throws {
      let data = try JSONSerialization.data(withJSONObject: list)
      try write(String(decoding: data, as: UTF8.self), to: root, path)
    }

    let envelopes = try load("envelope/valid.json") + load("envelope/invalid_binary.json")
    var wrongJSON = try pick(envelopes, "valid-binary-zlib-ping")
    wrongJSON["id"] = "wrong-json"
    wrongJSON["json"] = #"{"type":"pong"}"#
    var wrongCode = try pick(envelopes, "bin-bad-magic")
    wrongCode["id"] = "wrong-code"
    wrongCode["error"] = "envelope_corrupt"
    var notInvalid = try pick(envelopes, "valid-binary-zlib-ping")
    notInvalid["id"] = "not-invalid"
    notInvalid["valid"] = false
    notInvalid["error"] = "envelope_corrupt"
    try save([try pick(envelopes, "valid-text-zlib-ping"), wrongJSON, wrongCode, notInvalid], "envelope/e.json")

    let auth = try load("auth/handshakes.json")
    var forged = try pick(auth, "v2.basic")
    forged["id"] = "forged-response"
    forged["auth_response"] = String(repeating: "0", count: 64)
    var late = try pick(auth, "v2.just_in_time")
    late["id"] = "too-late"
    late["age_seconds"] = 61
    var once = try pick(auth, "v2.replay")
    once["id"] = "no-replay"
    once["replay"] = false
    var proof = try pick(auth, "v2.basic")
    proof["id"] = "bad-proof"
    proof["server_proof"] = String(repeating: "a", count: 64)
    var reason = try pick(auth, "v2.bad_nonce")
    reason["id"] = "wrong-failure"
    reason["failure"] = "wrong_response"
    var downgrade = try pick(auth, "v1.downgrade_refused")
    downgrade["id"] = "v1-allowed"
    downgrade["allow_auth_v1"] = true
    var okm = try pick(try load("auth/hkdf.json"), "rfc5869.1")
    okm["id"] = "wrong-okm"
    okm["okm_hex"] = String(repeating: "0", count: 84)
    var frames = try pick(try load("auth/frames.json"), "frames.replayed")
    frames["id"] = "replay-accepted"
    var messages = try #require(frames["messages"] as? [[String: Any]])
    messages[2]["expect"] = "accept"
    frames["messages"] = messages
    try save([try pick(auth, "v2.basic"), forged, late, once, proof, reason, downgrade], "auth/a.json")
    try save([okm], "auth/hkdf.json")
    try save([frames], "auth/frames.json")

    let cases = try load("negotiation/cases.json")
    let ios = "extensions.default.\"0.5.0\""
    var caps = try pick(cases, ios)
    caps["id"] = "wrong-capabilities"
    caps["expect"] = [
      "hello_version": "0.5.0", "negotiated_protocol_version": "0.5.0", "capabilities": ["heartbeat"],
      "auth_version": 2,
    ]
    var hello = try pick(cases, "matrix.default.absent")
    hello["id"] = "wrong-hello"
    var advertised = try #require(hello["expect"] as? [String: Any])
    advertised["hello_version"] = "0.4.0"
    hello["expect"] = advertised
    var error = try pick(cases, "matrix.default.\"0.3.0\"")
    error["id"] = "wrong-required"
    var expect = try #require(error["expect"] as? [String: Any])
    var refusal = try #require(expect["refusal"] as? [String: Any])
    refusal["required"] = "0.5.0"
    expect["refusal"] = refusal
    error["expect"] = expect
    try save([try pick(cases, ios), caps, hello, error], "negotiation/n.json")

    let refused =
      #"{"hello_version":"0.5.0","refusal":{"type":"error","message":"Client is too old; upgrade required","#
      + #""code":"unsupported_protocol_version","required":"0.4.0","received":"0.3.0"}}"#
    let r = runCommand(["vectors", root.path])
    #expect(r.status == 1)
    // What each runner prints is the shared judge's text (ConformanceKind.judge); the expected objects
    // of negotiation vectors are printed in the order the test wrote them (any), so only what the
    // library answered is checked there.
    let zeros = String(repeating: "0", count: 64)
    let expected = [
      "PASS auth/v2.basic",
      #"FAIL auth/forged-response: auth_response differs: expected "\#(zeros)", got ""#,
      "FAIL auth/too-late: expected outcome ok, the peer says auth_error; no server_proof_input_hex; no server_proof",
      "FAIL auth/no-replay: expected outcome auth_error, the peer says ok; expected failure challenge_not_valid, "
        + "the peer says nothing",
      #"FAIL auth/bad-proof: server_proof differs: expected "\#(String(repeating: "a", count: 64))", got ""#,
      #"FAIL auth/wrong-failure: expected failure wrong_response, the peer says "bad_nonce""#,
      "FAIL auth/v1-allowed: expected outcome downgrade_refused, the peer says ok",
      #"FAIL auth/replay-accepted: the vector's "valid" contradicts its messages' expect; message 2: expected "#
        + #"accept, got "replayed""#,
      #"FAIL auth/wrong-okm: okm_hex: expected "\#(String(repeating: "0", count: 84))", got "3cb25f25"#,
      "PASS envelope/valid-text-zlib-ping",
      #"FAIL envelope/wrong-json: opened to 15 bytes that differ from "json" (15 bytes)"#,
      "FAIL envelope/wrong-code: expected envelope_corrupt, the peer says envelope_bad_magic",
      "FAIL envelope/not-invalid: expected envelope_corrupt, the peer opened it (15 bytes)",
      "PASS negotiation/\(ios)",
      #"FAIL negotiation/wrong-capabilities: expected {"#,
      #"FAIL negotiation/wrong-hello: expected {"#,
      "FAIL negotiation/wrong-required: expected {",
      "3 passed, 14 failed",
    ]
    let lines = r.out.split(separator: "\n").map(String.init)
    #expect(lines.count == expected.count, "\(r.out)")
    for (line, start) in zip(lines, expected) {
      #expect(line.hasPrefix(start), "\(line) does not start with \(start)")
    }
    #expect(
      lines.contains {
        $0.hasPrefix("FAIL negotiation/wrong-capabilities")
          && $0.hasSuffix(
            #", got {"hello_version":"0.5.0","negotiated_protocol_version":"0.5.0","#
              + #""capabilities":["compression_text","heartbeat","message_ack"],"auth_version":2}"#)
      })
    #expect(
      lines.contains {
        $0.hasPrefix("FAIL negotiation/wrong-hello")
          && $0.hasSuffix(
            #", got {"hello_version":"0.5.0","negotiated_protocol_version":"0.4.0","capabilities":[],"auth_version":1}"#
          )
      })
    #expect(lines.contains { $0.hasPrefix("FAIL negotiation/wrong-required") && $0.hasSuffix(", got \(refused)") })
  }
}
