import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// `vcproto conformance` against a peer that attacks the runner rather than failing a test: one that
/// writes terminal control sequences into everything the runner quotes, and one that leaves children
/// holding its pipes (issue 29, items 4 and 5).
@Suite(.tags(.slow), .enabled(if: slowSuitesRun)) struct ConformanceHostilePeerTests {
  let base = ConformanceCommandTests()

  /// Whether a scalar could steer a terminal: C0 (but line feed, which ends each line), DEL, C1,
  /// the bidi controls and marks, zero-width and other format characters, line and paragraph
  /// separators. Written out here rather than taken from ``TerminalText`` (the code under test).
  static func steers(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    if scalar == "\n" { return false }
    if v < 0x20 || (0x7F...0x9F).contains(v) { return true }
    if [0x061C, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2028, 0x2029, 0xFEFF].contains(v) { return true }
    return (0x202A...0x202E).contains(v) || (0x2060...0x2069).contains(v)
  }

  /// Every text the runner quotes from the peer carries ESC sequences (clear screen, set title,
  /// OSC 52 clipboard write), CR (to overwrite a FAIL line with a fake PASS), C1 CSI, bidi overrides
  /// and isolates; one error text is 16 MiB. Nothing of it reaches the output raw, and the output
  /// stays small.
  @Test func whatThePeerSaysIsEscapedAndCut() throws {
    let nasty =
      #""\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;cGF5bG9hZA==\x07\r\x1b[2KPASS fake\u009b2J\u202eSSAP\u2066x\u2069""#
    let behaviour = """
      nasty = \(nasty)
      if rid == "negotiation/error":
          print(json.dumps({"id": rid, "error": nasty}), flush=True); continue
      if rid == "negotiation/huge":
          print(json.dumps({"id": rid, "error": nasty + "x" * (16 * 1024 * 1024 - 200)}), flush=True); continue
      if rid == "negotiation/unsupported":
          print(json.dumps({"id": rid, "unsupported": nasty}), flush=True); continue
      if rid == "negotiation/garbage":
          sys.stdout.write(nasty + "\\n"); sys.stdout.flush(); continue
      if rid == "negotiation/answer":
          print(json.dumps({"id": rid, "result": {"negotiated_protocol_version": nasty}}), flush=True); continue
      if rid == "negotiation/otherid":
          print(json.dumps({"id": nasty, "result": {}}), flush=True); continue
      if rid == "negotiation/stderr":
          sys.stderr.write("boom " + nasty + "\\n"); sys.stderr.flush(); sys.exit(3)
      """
    let ids = ["error", "huge", "unsupported", "garbage", "answer", "otherid", "stderr"]
    let r = base.run(try base.vectors(ids), try base.peer(behaviour), ["--timeout", "30", "-v"])
    #expect(r.status == 1)
    let all = r.out + r.err
    let raw = all.unicodeScalars.filter(Self.steers).map { String($0.value, radix: 16) }
    #expect(raw.isEmpty, "raw control characters in the output: \(Set(raw).sorted())")
    // Bounded: one line per test and three of totals, none longer than a test name and a message.
    let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == ids.count + 2, "\(r.out)")
    for line in lines {
      #expect(line.unicodeScalars.count <= 40 + TerminalText.maxMessageLength + 1, "\(line.prefix(200))")
    }
    #expect(all.utf8.count < 8 * 1024)
    // Only the runner's own lines start with a verdict; the forged PASS is shown escaped.
    #expect(!lines.contains { $0.hasPrefix("PASS") })
    #expect(lines.filter { $0.hasPrefix("FAIL ") }.count == 6, "\(r.out)")
    #expect(lines.contains { $0.hasPrefix("skip negotiation/unsupported: unsupported: \\u{1B}[2J") })
    #expect(r.out.contains(#"\u{1B}]52;c;cGF5bG9hZA==\u{07}\u{0D}\u{1B}[2KPASS fake\u{9B}2J\u{202E}SSAP"#))
    #expect(lines.contains { $0.hasPrefix("FAIL negotiation/huge: the peer reports an error: ") && $0.hasSuffix("x…") })
    #expect(lines.contains { $0.hasPrefix("FAIL negotiation/stderr: the peer exited (status 3)") })
    // CR ends a line of its error output: the last line is what follows it, escaped.
    #expect(r.out.contains("its last error output: \\u{1B}[2KPASS fake\\u{9B}2J"), "\(r.out)")
  }

  /// A handshake that is garbage is quoted on the error output, escaped.
  @Test func aHostileHandshakeIsEscapedOnTheErrorOutput() throws {
    let r = base.run(try base.vectors(["a"]), try base.peer(handshake: #"'\x1b]52;c;cGF5bG9hZA==\x07\r\x1b[2J'"#))
    #expect(r.status == 2)
    #expect(!(r.out + r.err).unicodeScalars.contains(where: Self.steers), "\(r.err)")
    #expect(r.err.contains(#"\u{1B}]52;c;cGF5bG9hZA==\u{07}\u{0D}\u{1B}[2J"#), "\(r.err)")
  }

  // MARK: - Children that hold the pipes

  /// Whether a process is alive (a zombie waiting for its parent to reap it is not).
  static func alive(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    #if os(Linux)
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      return !stat[close...].hasPrefix(") Z")
    #else
      return true
    #endif
  }

  /// A peer started through a shell wrapper that first starts a child which sleeps 30 s holding the
  /// peer's pipes (and writes the child's pid to a file). The first test hangs past `--timeout 2`,
  /// the second passes on a restarted peer, then the run ends. Before the fix each stop waited for
  /// the sleeping child (`waitUntilExit()`): 60 s in all, unbounded for a child that never exits.
  /// Now the run ends within the timeout and a small margin, and no child is left.
  @Test(.timeLimit(.minutes(2))) func childrenHoldingThePipesDoNotHoldTheRun() throws {
    let python = try base.peer(
      """
      if rid == "negotiation/hang":
          time.sleep(30)
      """)
    let pids = python.deletingLastPathComponent().appendingPathComponent("pids")
    let wrapper = temporaryFile(
      "sleep 30 &\necho $! >> '\(pids.path)'\nexec python3 '\(python.path)'\n", name: "wrapper.sh")
    let root = try base.vectors(["hang", "ok"])
    let started = ContinuousClock.now
    let r = runCommand(["conformance", "--vectors", root.path, "--timeout", "2", "--", "sh", wrapper.path])
    let elapsed = ContinuousClock.now - started
    #expect(r.status == 1, "\(r.out)\(r.err)")
    #expect(r.out.contains("FAIL negotiation/hang: no answer within 2 s (the peer hangs)"), "\(r.out)")
    #expect(r.out.hasSuffix("1 passed, 1 failed, 0 skipped\n"), "\(r.out)")
    // 2 s of timeout, two interpreter starts and a graceful end (2.6 s alone; the margin is for a
    // loaded machine); over 60 s before the fix.
    #expect(elapsed < .seconds(20), "\(elapsed)")
    let children = try String(contentsOf: pids, encoding: .utf8).split(separator: "\n").compactMap { Int32($0) }
    #expect(children.count == 2)
    // SIGKILL is delivered asynchronously: give the children a moment to go.
    let until = ContinuousClock.now + .seconds(3)
    while children.contains(where: Self.alive), ContinuousClock.now < until { usleep(20_000) }
    for child in children where Self.alive(child) {
      Issue.record("the peer's child \(child) is still running")
      kill(child, SIGKILL)
    }
  }
}
