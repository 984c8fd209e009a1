import Foundation
import Testing
import VCProto

@testable import VCProtoCLI

/// `vcproto conformance`: the comparisons, the failure list, and peers that misbehave (small Python
/// scripts written by the tests).
@Suite struct ConformanceCommandTests {
  static let outcome = #"{"negotiated_protocol_version":"0.2.0","capabilities":[],"auth_version":1}"#

  /// A vectors folder holding negotiation vectors with these ids, all expecting ``outcome``.
  func vectors(_ ids: [String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("vcproto-conf-\(UUID().uuidString)")
    let folder = root.appendingPathComponent("negotiation")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let items = ids.map {
      #"{"id":"\#($0)","server":{"protocol_versions":["0.2.0"]},"client":{},"outcome":\#(Self.outcome)}"#
    }
    try Data(("[" + items.joined(separator: ",\n") + "]").utf8).write(to: folder.appendingPathComponent("cases.json"))
    return root
  }

  /// A peer script: answers ``outcome`` to every request; `behaviour` is Python run first for each
  /// request, with `rid` bound to the request's id (it may exit, sleep, print something else and
  /// `continue`).
  func peer(_ behaviour: String = "pass", handshake: String = #"{"conformance": 1, "kinds": ["negotiation"]}"#)
    throws -> URL
  {
    let script = """
      import json, sys, time
      print(json.dumps(\(handshake)) if isinstance(\(handshake), dict) else \(handshake), flush=True)
      for line in sys.stdin:
          request = json.loads(line)
          rid = request["id"]
      \(behaviour.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
          print(json.dumps({"id": rid, "result": \(Self.outcome)}), flush=True)
      """
    return temporaryFile(script, name: "peer.py")
  }

  func run(_ root: URL, _ peer: URL, _ options: [String] = []) -> (status: Int32, out: String, err: String) {
    runCommand(["conformance", "--vectors", root.path] + options + ["--", "python3", peer.path])
  }

  // MARK: - Runs against scripted peers

  @Test func aPassingPeerPassesEveryTest() throws {
    let r = run(try vectors(["a", "b", "c"]), try peer())
    #expect(r.status == 0, "\(r.out)\(r.err)")
    #expect(r.out == "negotiation: 3 passed, 0 failed, 0 skipped\n3 passed, 0 failed, 0 skipped\n")
  }

  @Test(.tags(.slow), .enabled(if: slowSuitesRun))
  func crashHangGarbageOversizeAndWrongIdFailOneTestEachAndTheRunGoesOn() throws {
    let behaviour = """
      if rid == "negotiation/crash":
          sys.stderr.write("boom: simulated crash\\n"); sys.exit(3)
      if rid == "negotiation/hang":
          time.sleep(30)
      if rid == "negotiation/garbage":
          print("this is not JSON", flush=True); continue
      if rid == "negotiation/array":
          print("[1]", flush=True); continue
      if rid == "negotiation/long":
          print(json.dumps({"id": rid, "result": {"pad": "x" * 5000}}), flush=True); continue
      if rid == "negotiation/other":
          print(json.dumps({"id": "negotiation/ok1", "result": {}}), flush=True); continue
      if rid == "negotiation/wrong":
          print(json.dumps({"id": rid, "result": {"negotiated_protocol_version": "0.3.0", "capabilities": [], "auth_version": 1}}), flush=True); continue
      """
    let ids = [
      "ok1", "crash", "ok2", "hang", "ok3", "garbage", "ok4", "long", "ok5", "other", "ok6", "wrong", "ok7", "array",
      "ok8",
    ]
    let r = run(try vectors(ids), try peer(behaviour), ["--timeout", "3", "--max-reply-bytes", "1024"])
    #expect(r.status == 1)
    let fails = r.out.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }.map(String.init)
    #expect(fails.count == 7, "\(r.out)")
    #expect(
      fails.contains {
        $0.hasPrefix("FAIL negotiation/crash: the peer exited (status 3)") && $0.hasSuffix("boom: simulated crash")
      })
    #expect(fails.contains("FAIL negotiation/hang: no answer within 3 s (the peer hangs)"))
    #expect(
      fails.contains(
        "FAIL negotiation/garbage: the peer answered garbage (not JSON: invalid literal, expected true at byte 1): \"this is not JSON\""
      ))
    #expect(fails.contains("FAIL negotiation/array: the peer answered garbage (a JSON array, not an object): \"[1]\""))
    #expect(fails.contains("FAIL negotiation/long: the answer is longer than 1024 bytes"))
    #expect(fails.contains("FAIL negotiation/other: the peer answered for \"negotiation/ok1\", not for this test"))
    #expect(fails.contains { $0.hasPrefix("FAIL negotiation/wrong: expected {") && $0.contains("\"0.3.0\"") })
    #expect(r.out.hasSuffix("8 passed, 7 failed, 0 skipped\n"), "\(r.out)")
  }

  /// A garbage answer is quoted by its first 120 Unicode scalars, never split inside a character (the
  /// old cut at 120 bytes ended 3-byte `語` after 40 of them, with a U+FFFD), and key-shaped text in it
  /// is masked.
  @Test func garbageIsQuotedByWholeCharactersAndMasked() throws {
    let key = "untethered-" + String(repeating: "ab", count: 16)
    let behaviour = """
      if rid == "negotiation/wide":
          print("語" * 300, flush=True); continue
      if rid == "negotiation/key":
          print("token \(key) leaked", flush=True); continue
      """
    let r = run(try vectors(["wide", "key"]), try peer(behaviour), ["--timeout", "5"])
    #expect(r.status == 1)
    let wide = r.out.split(separator: "\n").first { $0.hasPrefix("FAIL negotiation/wide: ") }.map(String.init) ?? ""
    #expect(wide.hasSuffix("\"" + String(repeating: "語", count: 120) + "…\""), "\(wide)")
    #expect(!wide.unicodeScalars.contains("\u{FFFD}"))
    #expect(!r.out.contains(key), "\(r.out)")
    #expect(r.out.contains("token \(Redaction.mask) leaked"), "\(r.out)")
  }

  @Test func unsupportedKindsAndAnswersAreSkipped() throws {
    let root = try vectors(["a", "b"])
    let unsupported = run(
      root, try peer(#"print(json.dumps({"id": rid, "unsupported": "not yet"}), flush=True); continue"#))
    #expect(unsupported.status == 0)
    #expect(unsupported.out.hasSuffix("0 passed, 0 failed, 2 skipped\n"))
    let noKind = run(root, try peer(handshake: #"{"conformance": 1, "kinds": ["messages"]}"#), ["-v"])
    #expect(noKind.status == 0)
    #expect(noKind.out.contains("skip negotiation/a: the peer does not support negotiation"))
    #expect(noKind.out.hasSuffix("0 passed, 0 failed, 2 skipped\n"))
  }

  /// A peer that writes much more to its error output than a pipe holds is never blocked by it.
  @Test func aChattyErrorOutputDoesNotBlockThePeer() throws {
    let r = run(
      try vectors(["a", "b"]), try peer(#"sys.stderr.write("log line\n" * 50000); sys.stderr.flush()"#),
      ["--timeout", "5"])
    #expect(r.status == 0, "\(r.out)")
    #expect(r.out.hasSuffix("2 passed, 0 failed, 0 skipped\n"))
  }

  @Test func anErrorReplyFailsTheTestWithItsText() throws {
    let r = run(
      try vectors(["a"]),
      try peer(#"print(json.dumps({"id": rid, "error": "KeyError: server"}), flush=True); continue"#))
    #expect(r.status == 1)
    #expect(r.out.contains("FAIL negotiation/a: the peer reports an error: KeyError: server"))
  }

  @Test func aPeerThatDoesNotStartIsAUsageError() throws {
    let root = try vectors(["a"])
    let noHandshake = run(root, try peer(handshake: "'hello'"))
    #expect(noHandshake.status == 2)
    #expect(noHandshake.err.contains("the first line is not a handshake"))
    let wrongVersion = run(root, try peer(handshake: #"{"conformance": 2, "kinds": ["negotiation"]}"#))
    #expect(wrongVersion.status == 2)
    let missing = runCommand(["conformance", "--vectors", root.path, "--", "vcproto-no-such-peer-program"])
    #expect(missing.status == 2)
    #expect(missing.err.contains("vcproto conformance: the peer could not be started"))
  }

  @Test func failureListKnownFailuresPassAndListedPassesFail() throws {
    let root = try vectors(["a", "b", "c"])
    let script = try peer(
      #"if rid == "negotiation/b": print(json.dumps({"id": rid, "result": {}}), flush=True); continue"#)
    let unlisted = run(root, script)
    #expect(unlisted.status == 1)
    let listed = temporaryFile("# known\nnegotiation/b   # answers {}\n\n", name: "known.txt")
    let known = run(root, script, ["--failure-list", listed.path])
    #expect(known.status == 0, "\(known.out)")
    #expect(known.out.hasSuffix("2 passed, 0 failed, 1 known failure, 0 skipped\n"))
    let stale = temporaryFile("negotiation/b\nnegotiation/c\nnegotiation/gone\n", name: "stale.txt")
    let shrink = run(root, script, ["--failure-list", stale.path])
    #expect(shrink.status == 1)
    #expect(shrink.out.contains("UNEXPECTED PASS negotiation/c: listed as a known failure; remove it from the list"))
    #expect(shrink.out.contains("note: the failure list names tests that do not exist: negotiation/gone"))
    #expect(shrink.out.hasSuffix("2 passed, 0 failed, 1 known failure, 1 listed but passing, 0 skipped\n"))
  }

  @Test func subsetsByKindAndIdGlob() throws {
    let root = try vectors(["alpha.1", "alpha.2", "beta.1"])
    let r = run(root, try peer(), ["--id", "negotiation/alpha.*", "-v"])
    #expect(r.status == 0)
    #expect(
      r.out
        == "PASS negotiation/alpha.1\nPASS negotiation/alpha.2\nnegotiation: 2 passed, 0 failed, 0 skipped\n2 passed, 0 failed, 0 skipped\n"
    )
    let none = run(root, try peer(), ["--kind", "auth"])
    #expect(none.status == 2)
    let bad = run(root, try peer(), ["--kind", "sessionz"])
    #expect(bad.status == 2)
    #expect(bad.err.contains("unknown kind 'sessionz'"))
  }

  // MARK: - Failure list and comparisons

  @Test func failureListParsing() throws {
    let list = try ConformanceFailureList(text: "a/b # why\n  c/d  \n# only a comment\n\n")
    #expect(list.names == ["a/b", "c/d"])
    #expect(list.verdict("a/b", passed: false) == .knownFailure)
    #expect(list.verdict("a/b", passed: true) == .unexpectedPass)
    #expect(list.verdict("x/y", passed: false) == .failed)
    #expect(list.verdict("x/y", passed: true) == .passed)
    #expect(throws: UsageError.self) { try ConformanceFailureList(text: "a/b\na/b # twice\n") }
  }

  func json(_ text: String) -> JSONValue { try! JSONReader().parse(Array(text.utf8)) }

  @Test func messageFindingsCompareAsSetsOfPointerAndCode() {
    let vector = json(
      #"{"frame":"{\"type\":\"x\"}","valid":false,"findings":[{"pointer":"/a","code":"missing_field"},{"pointer":"","code":"wrong_type"}]}"#
    )
    let reordered = json(
      #"{"valid":false,"findings":[{"pointer":"","code":"wrong_type","severity":"error"},{"pointer":"/a","code":"missing_field"}]}"#
    )
    #expect(ConformanceKind.compareMessage(vector, reordered).isEmpty)
    let wrong = json(
      #"{"valid":false,"findings":[{"pointer":"/a","code":"wrong_type"},{"pointer":"","code":"wrong_type"}]}"#)
    #expect(
      ConformanceKind.compareMessage(vector, wrong) == [
        "missing findings missing_field /a", "unexpected findings wrong_type /a",
      ])
    #expect(ConformanceKind.compareMessage(vector, json(#"{"valid":true,"findings":[]}"#)).count == 2)
    #expect(
      ConformanceKind.compareMessage(vector, json(#"{"valid":false,"findings":[{"pointer":1}]}"#)).last
        == "\"findings\" is not an array of {pointer, code}")
  }

  @Test func canonicalIsByteExactAndNonCanonicalVectorsUseTheSpecsReencoding() {
    let valid = json(#"{"frame":"{\"type\":\"ping\"}","direction":"client_to_server","valid":true}"#)
    #expect(
      ConformanceKind.compareMessage(valid, json(#"{"valid":true,"findings":[],"canonical":"{\"type\":\"ping\"}"}"#))
        .isEmpty)
    #expect(
      ConformanceKind.compareMessage(valid, json(#"{"valid":true,"findings":[],"canonical":"{\"type\": \"ping\"}"}"#))
        .count == 1)
    #expect(
      ConformanceKind.compareMessage(valid, json(#"{"valid":true,"findings":[]}"#)) == [
        "a valid frame needs \"canonical\", its re-encoding"
      ])
    // STANDARDS.md#null: an optional member that is null is omitted on re-encoding.
    let nonCanonical = json(
      #"{"frame":"{\"type\":\"refresh_sessions\",\"recent_sessions_limit\":null}","direction":"client_to_server","valid":true,"canonical":false,"protocol_version":"0.2.0"}"#
    )
    #expect(
      ConformanceKind.compareMessage(
        nonCanonical, json(#"{"valid":true,"findings":[],"canonical":"{\"type\":\"refresh_sessions\"}"}"#)
      ).isEmpty)
    #expect(
      !ConformanceKind.compareMessage(
        nonCanonical,
        json(
          #"{"valid":true,"findings":[],"canonical":"{\"type\":\"refresh_sessions\",\"recent_sessions_limit\":null}"}"#)
      ).isEmpty)
  }

  /// STANDARDS.md#encoding and the member tables of STANDARDS.md#message-reference: catalog order at every
  /// depth, a required nullable member keeps its null, an optional null goes, undeclared members
  /// follow as received, and a raw Claude record is kept as received.
  @Test func canonicalFormFromTheCatalog() {
    let frame =
      #"{"general_commands":[{"label":"L","x":1,"id":"i","type":"command"}],"type":"available_commands","project_commands":[],"working_directory":null,"extra":true}"#
    let canonical = ConformanceCanonical.text(of: Array(frame.utf8), version: "0.2.0")
    #expect(
      canonical.map { String(decoding: $0, as: UTF8.self) }
        == #"{"type":"available_commands","working_directory":null,"project_commands":[],"general_commands":[{"id":"i","label":"L","type":"command","x":1}],"extra":true}"#
    )
    let record =
      #"{"type":"session_updated","messages":[{"uuid":"u","type":"user","parentUuid":null}],"session_id":"s"}"#
    #expect(
      ConformanceCanonical.text(of: Array(record.utf8), version: "0.2.0").map { String(decoding: $0, as: UTF8.self) }
        == #"{"type":"session_updated","session_id":"s","messages":[{"uuid":"u","type":"user","parentUuid":null}]}"#)
    let optionalNull = #"{"type":"subscribe","last_message_id":null,"session_id":"s"}"#
    #expect(
      ConformanceCanonical.text(of: Array(optionalNull.utf8), version: "0.2.0").map {
        String(decoding: $0, as: UTF8.self)
      }
        == #"{"type":"subscribe","session_id":"s"}"#)
    #expect(ConformanceCanonical.text(of: Array(#"{"type":"no_such_type"}"#.utf8), version: "0.2.0") == nil)
  }

  @Test func warningsListedInTheVectorMustBeAmongThePeers() {
    let vector = json(
      #"{"frame":"{\"type\":\"zz\"}","valid":true,"warnings":[{"pointer":"/type","code":"unknown_type"}]}"#)
    let none = json(#"{"valid":true,"findings":[],"canonical":"{\"type\":\"zz\"}"}"#)
    #expect(ConformanceKind.compareMessage(vector, none) == ["missing warnings unknown_type /type"])
    let more = json(
      #"{"valid":true,"findings":[],"warnings":[{"pointer":"/type","code":"unknown_type"},{"pointer":"/q","code":"unexpected_field"}],"canonical":"{\"type\":\"zz\"}"}"#
    )
    #expect(ConformanceKind.compareMessage(vector, more).isEmpty)
  }

  @Test func envelopeAuthAndNegotiationComparisons() {
    let envelope = json(#"{"valid":true,"json":"{}"}"#)
    #expect(ConformanceKind.envelope.compare(envelope, json(#"{"opened_base64":"e30="}"#)).isEmpty)
    #expect(ConformanceKind.envelope.compare(envelope, json(#"{"opened_base64":"e30K"}"#)).count == 1)
    let invalid = json(#"{"valid":false,"error":"envelope_corrupt"}"#)
    #expect(ConformanceKind.envelope.compare(invalid, json(#"{"error":"envelope_corrupt"}"#)).isEmpty)
    #expect(
      ConformanceKind.envelope.compare(invalid, json(#"{"error":"envelope_truncated"}"#)) == [
        "expected envelope_corrupt, the peer says envelope_truncated"
      ])

    let auth = json(
      #"{"expected_outcome":"auth_error","failure":"wrong_response","auth_response":"ab","accepted_capabilities":["a","b"]}"#
    )
    #expect(
      ConformanceKind.auth.compare(
        auth,
        json(
          #"{"outcome":"auth_error","failure":"wrong_response","auth_response":"ab","accepted_capabilities":["a","b"],"server_proof":"extra"}"#
        )
      ).isEmpty)
    #expect(
      ConformanceKind.auth.compare(
        auth,
        json(
          #"{"outcome":"auth_error","failure":"wrong_response","auth_response":"ab","accepted_capabilities":["b","a"]}"#
        )
      ).count == 1)
    #expect(ConformanceKind.auth.compare(auth, json(#"{"outcome":"ok","auth_response":"ab"}"#)).count == 3)
    // The auth input leaves out every expectation.
    let input = try? ConformanceKind.auth.input(
      json(#"{"id":"x","api_key":"k","auth_response":"ab","expected_outcome":"ok","valid":true}"#)
    ).get()
    #expect(input == json(#"{"api_key":"k"}"#))

    let outcome = json(
      #"{"outcome":{"negotiated_protocol_version":"0.2.0","capabilities":["a","b"],"auth_version":1}}"#)
    #expect(
      ConformanceKind.negotiation.compare(
        outcome, json(#"{"auth_version":1.0,"capabilities":["a","b"],"negotiated_protocol_version":"0.2.0"}"#)
      ).isEmpty)
    #expect(
      ConformanceKind.negotiation.compare(
        outcome, json(#"{"auth_version":1,"capabilities":["b","a"],"negotiated_protocol_version":"0.2.0"}"#)
      ).count == 1)
  }

  @Test func sessionStepsCompareInOrderWithIllegalEvents() throws {
    let vector = json(
      #"{"role":"client","config":{"jitter":0},"steps":[{"input":{"kind":"start"},"expect":[{"action":"open_transport"}]},{"input":{"kind":"frame"},"expect":[]},{"input":{"kind":"advance","ms":5},"error":{"state":"idle","event":"advance"}}]}"#
    )
    let input = try ConformanceKind.sessions.input(vector).get()
    #expect(
      input
        == json(
          #"{"role":"client","config":{"jitter":0},"steps":[{"kind":"start"},{"kind":"frame"},{"kind":"advance","ms":5}]}"#
        ))
    let right = json(
      #"{"steps":[{"actions":[{"action":"open_transport"}]},{"actions":[]},{"error":{"event":"advance","state":"idle"}}]}"#
    )
    #expect(ConformanceKind.sessions.compare(vector, right).isEmpty)
    let late = json(
      #"{"steps":[{"actions":[{"action":"open_transport"}]},{"actions":[{"action":"send"}]},{"error":{"event":"advance","state":"idle"}}]}"#
    )
    #expect(
      ConformanceKind.sessions.compare(vector, late) == [
        #"step 1 (frame): expected [], got {"actions":[{"action":"send"}]}"#
      ])
    let legal = json(#"{"steps":[{"actions":[{"action":"open_transport"}]},{"actions":[]},{"actions":[]}]}"#)
    #expect(
      ConformanceKind.sessions.compare(vector, legal).first?.hasPrefix("step 2 (advance): expected the illegal event")
        == true)
    #expect(ConformanceKind.sessions.compare(vector, json(#"{"steps":[]}"#)) == ["expected 3 steps, got 0"])
  }

  @Test func aFolderMayHoldSeveralKindsByFileName() {
    let noop = ConformanceKind(name: "x", input: { .success($0) }, compare: { _, _ in [] })
    var special = noop
    special.name = "auth_hkdf"
    special.folder = "auth"
    special.file = "hkdf"
    var general = noop
    general.name = "auth"
    general.folder = "auth"
    let kinds = [general, special]
    #expect(ConformanceKind.of(["auth", "hkdf.json"], among: kinds)?.name == "auth_hkdf")
    #expect(ConformanceKind.of(["auth", "handshakes.json"], among: kinds)?.name == "auth")
    #expect(ConformanceKind.of(["auth", "0.3.0", "hkdf.json"], among: kinds)?.name == "auth_hkdf")
    #expect(ConformanceKind.of(["other", "a.json"], among: kinds) == nil)
    #expect(ConformanceKind.of(["a.json"], among: kinds) == nil)
  }

  /// Every envelope error code of STANDARDS.md#compression has a vector (this check came from the
  /// former tools/crosscheck_envelope.py; the codes are listed here by hand from the spec).
  @Test func everyEnvelopeErrorCodeHasAVector() throws {
    let codes = Set(
      """
      bad_magic unsupported_version reserved_flags unknown_encoding truncated_header too_large inflate_limit
      ratio_exceeded length_mismatch truncated corrupt trailing_data invalid_base64 malformed gzip_header_too_large
      """.split(whereSeparator: \.isWhitespace).map { "envelope_" + $0 })
    let found = ConformanceTestCase.discover(root: packageRoot.appendingPathComponent("Vectors").path)
    let seen = Set(found.tests.filter { $0.kind == "envelope" }.compactMap { $0.vector["error"]?.stringValue })
    #expect(codes.subtracting(seen).isEmpty, "no vector for \(codes.subtracting(seen).sorted())")
  }

  /// The tests the documentation and the help of `conformance` and `vectors` name (`"id": ...` in the
  /// pipe's examples, `FAIL ...` and `PASS ...` lines, `<kind>/<id>` in backquotes), of every kind,
  /// are tests the runner has, a message test with its version folder, so a failure list copied from
  /// them works; each `--id` glob shown runs something.
  @Test func testNamesAndIdGlobsInTheDocumentationExist() throws {
    let found = ConformanceTestCase.discover(root: packageRoot.appendingPathComponent("Vectors").path)
    let names = Set(found.tests.map(\.name))
    let help = runCommand(["conformance", "--help"]).out
    let helps = ["conformance --help": help, "vectors --help": runCommand(["vectors", "--help"]).out]
    var citedKinds = Set<String>()
    for document in ["docs/CLI.md", "Vectors/CONFORMANCE.md", "Vectors/README.md"] + helps.keys.sorted() {
      let text =
        try helps[document] ?? String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
      for name in try Self.citedTestNames(in: text).sorted() {
        citedKinds.insert(String(name.prefix { $0 != "/" }))
        let exists = names.contains(name)
        #expect(exists, "\(document) names \(name), which is no test")
      }
      for globs in try Self.captures(#"--id\s+'([^']+)'"#, in: text) {
        for glob in globs.split(separator: ",").map(String.init) {
          let runsSomething = names.contains { fnmatch(glob, $0, 0) == 0 }
          #expect(runsSomething, "\(document): --id '\(glob)' runs nothing")
        }
      }
    }
    // Every kind's examples are checked: the documents cite a test of each folder.
    #expect(citedKinds == ["messages", "envelope", "auth", "negotiation", "sessions"], "\(citedKinds.sorted())")
    // The check can fail: the names the documentation used to show are found in its forms, and none
    // is a test.
    let former = #"""
      {"id": "envelope/valid-binary-tiny", "kind": "envelope", "input": {}}
      {"id": "negotiation/ceiling", "result": {}}
      {"id": "sessions/client.example", "kind": "sessions", "input": {}}
      `auth/frames.one` `messages/0.5.0/connect.nope` `negotiation/matrix.default."0.9"`
      FAIL messages/connect.null.api_key: ...
      """#
    let formerNames: Set = [
      "envelope/valid-binary-tiny", "negotiation/ceiling", "sessions/client.example", "auth/frames.one",
      "messages/0.5.0/connect.nope", #"negotiation/matrix.default."0.9""#, "messages/connect.null.api_key",
    ]
    #expect(try Self.citedTestNames(in: former) == formerNames)
    #expect(formerNames.isDisjoint(with: names))
    let oldGlob = names.contains { fnmatch("messages/connect.*", $0, 0) == 0 }
    #expect(!oldGlob)
    // An id with JSON escapes is read decoded: the negotiation example's id is a test.
    #expect(
      try Self.citedTestNames(in: #"{"id": "negotiation/extensions.default.\"0.5.0\""}"#) == [
        #"negotiation/extensions.default."0.5.0""#
      ])
  }

  /// The counts docs/CLI.md and CONFORMANCE.md quote from a passing run are the runner's: each kind's
  /// line is the number of tests of that kind under Vectors/, the last line their total.
  @Test func quotedCountsAreTheVectorsCounts() throws {
    let found = ConformanceTestCase.discover(root: packageRoot.appendingPathComponent("Vectors").path)
    #expect(found.problems.isEmpty && found.unknownKinds.isEmpty, "\(found.problems) \(found.unknownKinds)")
    let counts = Dictionary(grouping: found.tests, by: \.kind).mapValues(\.count)
    for document in ["docs/CLI.md", "Vectors/CONFORMANCE.md"] {
      let text = try String(contentsOf: packageRoot.appendingPathComponent(document), encoding: .utf8)
      let regex = try NSRegularExpression(pattern: #"(?m)^(?:([a-z_]+): )?(\d+) passed, 0 failed, 0 skipped$"#)
      let lines = regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
        (
          Range(match.range(at: 1), in: text).map { String(text[$0]) },
          Range(match.range(at: 2), in: text).flatMap { Int(text[$0]) }
        )
      }
      #expect(Set(lines.compactMap(\.0)) == Set(counts.keys), "\(document): kinds \(lines.compactMap(\.0))")
      for (kind, quoted) in lines {
        let actual = kind.map { counts[$0] ?? 0 } ?? found.tests.count
        #expect(
          quoted == actual, "\(document) quotes \(quoted ?? -1) for \(kind ?? "the total"), the vectors have \(actual)")
      }
    }
  }

  /// The test names `text` cites: the `"id"` of a pipe example (a JSON string, decoded), the name of
  /// a `FAIL` or `PASS` line, and `<kind>/<id>` in backquotes (a message test with its version folder;
  /// not a glob, a folder or a `.json` file).
  static func citedTestNames(in text: String) throws -> Set<String> {
    let kinds = "(?:messages|envelope|auth|negotiation|sessions)"
    var cited = Set<String>()
    for literal in try captures(#""id": ("\#(kinds)/(?:[^"\\]|\\.)*")"#, in: text) {
      let decoded = try JSONSerialization.jsonObject(with: Data(literal.utf8), options: .fragmentsAllowed)
      cited.insert(try #require(decoded as? String))
    }
    cited.formUnion(try captures(#"(?:FAIL|PASS) (\#(kinds)/[^ :`]+)"#, in: text))
    cited.formUnion(try captures(#"`(messages/\d+\.\d+\.\d+/[^`*]+)`"#, in: text))
    cited.formUnion(
      try captures(#"`((?:envelope|auth|negotiation|sessions)/[^`*/]+)`"#, in: text).filter { !$0.hasSuffix(".json") })
    return cited
  }

  /// The first capture group of every match of `pattern` in `text`.
  static func captures(_ pattern: String, in text: String) throws -> [String] {
    let regex = try NSRegularExpression(pattern: pattern)
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
      Range($0.range(at: 1), in: text).map { String(text[$0]) }
    }
  }
}
