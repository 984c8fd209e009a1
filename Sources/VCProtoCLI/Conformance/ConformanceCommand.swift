import Foundation
import VCProtoCapture
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `vcproto conformance -- <command> [args...]`: runs the golden vectors against any implementation,
/// started as a child process and spoken to in JSON Lines (Vectors/CONFORMANCE.md).
enum ConformanceCommand {
  static let spec = CommandSpec(
    name: "conformance",
    abstract: "Run the golden vectors against another implementation over a pipe.",
    example: "vcproto conformance -- python3 tools/conformance_peer.py",
    exitStatus: [
      ExitStatus(0, "nothing unexpected"), ExitStatus(1, "an unlisted failure, or a listed test that passed"),
      ExitStatus(2, "usage error, unreadable vectors or failure list, or a peer that does not start"),
    ],
    options: [
      .option("vectors", value: "dir", help: "The vectors directory (default Vectors)."),
      .option("kind", value: "kinds", help: "Only these kinds (comma-separated)."),
      .option("id", value: "globs", help: "Only tests matching a glob (comma-separated)."),
      .option("failure-list", value: "file", help: "Known failures, one test name per line."),
      .option(
        "timeout", value: "seconds", help: "Longest wait for an answer (default 10)."),
      .option("max-reply-bytes", value: "bytes", help: "Longest answer line (default 16 MiB)."),
      .flag("verbose", short: "v", help: "Also print passing, skipped and known-failing tests."),
    ],
    positionals: [
      PositionalSpec(
        name: "command", help: "The implementation under test, with its arguments.", optional: false, repeating: true)
    ])

  /// The options of one run.
  struct Options {
    var vectors = "Vectors"
    var kinds: Set<String>?
    var idGlobs: [String] = []
    var failureList = ConformanceFailureList()
    var timeout = 10.0
    var maxReplyBytes = 16 * 1024 * 1024
    var verbose = false
    var command: [String] = []
  }

  static func options(_ args: ParsedArguments, io: CommandIO) throws(UsageError) -> Options {
    var o = Options()
    o.command = args.positionals
    if let v = args["vectors"] { o.vectors = v }
    if let k = args["kind"] {
      let kinds = Set(k.split(separator: ",").map(String.init))
      let unknown = kinds.subtracting(ConformanceKind.all.map(\.name))
      guard unknown.isEmpty else {
        throw UsageError(
          "unknown kind '\(unknown.sorted().joined(separator: ","))' (expected "
            + ArgumentParser.alternatives(ConformanceKind.all.map(\.name)) + ")")
      }
      o.kinds = kinds
    }
    if let g = args["id"] { o.idGlobs = g.split(separator: ",").map(String.init) }
    if let t = args["timeout"] {
      guard let seconds = Double(t), seconds > 0, seconds <= 3600 else {
        throw UsageError("invalid value '\(t)' for '--timeout' (expected seconds, more than 0, at most 3600)")
      }
      o.timeout = seconds
    }
    if let m = args["max-reply-bytes"] {
      guard let n = Int(m), n >= 1024 else {
        throw UsageError("invalid value '\(m)' for '--max-reply-bytes' (expected an integer of at least 1024)")
      }
      o.maxReplyBytes = n
    }
    if let path = args["failure-list"] {
      guard let data = FileManager.default.contents(atPath: io.resolve(path)) else {
        throw UsageError("cannot read the failure list '\(path)'")
      }
      o.failureList = try ConformanceFailureList(text: String(decoding: data, as: UTF8.self))
    }
    o.verbose = args.has("verbose")
    return o
  }

  static func run(_ args: ParsedArguments, io: CommandIO) throws(UsageError) -> Int32 {
    let o = try options(args, io: io)
    let kinds = ConformanceKind.all.filter { o.kinds?.contains($0.name) ?? true }
    let root = io.resolve(o.vectors)
    let found = ConformanceTestCase.discover(root: root)
    for problem in found.problems { io.standardError.line("vcproto conformance: " + TerminalText.message(problem)) }
    guard found.problems.isEmpty else { return 2 }
    for kind in found.unknownKinds where o.kinds == nil {
      io.standardOutput.line("skip \(TerminalText.name(kind))/: not a kind this runner knows")
    }
    let tests = found.tests.filter { test in
      kinds.contains { $0.name == test.kind }
        && (o.idGlobs.isEmpty || o.idGlobs.contains { fnmatch($0, test.name, 0) == 0 })
    }
    guard !tests.isEmpty else {
      io.standardError.line("vcproto conformance: no vectors to run in '\(o.vectors)'")
      return 2
    }
    let runner = ConformanceRunner(options: o, directory: io.currentDirectory)
    defer { runner.peer.stop(gracefully: true) }
    do throws(ConformancePeer.Failure) {
      try runner.startPeer()
    } catch {
      io.standardError.line("vcproto conformance: " + TerminalText.message("\(error)"))
      return 2
    }
    var tally = ConformanceTally()
    for test in tests {
      let kind = kinds.first { $0.name == test.kind }!
      let (passed, said) = runner.run(test, kind: kind)
      // The message quotes the peer (its error texts, its answers, its error output): escaped and
      // cut like validate's findings, so a peer cannot steer the terminal or flood it.
      let message = TerminalText.message(said)
      let name = TerminalText.escaped(test.name)
      let verdict = passed.map { o.failureList.verdict(test.name, passed: $0) } ?? .skipped
      tally.add(verdict, kind: test.kind)
      switch verdict {
      case .failed: io.standardOutput.line("FAIL \(name): \(message)")
      case .unexpectedPass:
        io.standardOutput.line("UNEXPECTED PASS \(name): listed as a known failure; remove it from the list")
      case .knownFailure where o.verbose: io.standardOutput.line("known failure \(name): \(message)")
      case .skipped where o.verbose: io.standardOutput.line("skip \(name): \(message)")
      case .passed where o.verbose: io.standardOutput.line("PASS \(name)")
      default: break
      }
    }
    for kind in kinds where tally.byKind[kind.name] != nil {
      io.standardOutput.line("\(kind.name): \(tally.byKind[kind.name]!.summary)")
    }
    if o.kinds == nil, o.idGlobs.isEmpty {
      let names = Set(found.tests.map(\.name))
      let stale = o.failureList.names.subtracting(names).sorted()
      if !stale.isEmpty {
        io.standardOutput.line(
          "note: the failure list names tests that do not exist: "
            + stale.map { TerminalText.escaped($0) }.joined(separator: ", "))
      }
    }
    io.standardOutput.line(tally.total.summary)
    return tally.total.failsRun ? 1 : 0
  }
}

/// Counts of one kind or of the whole run.
struct ConformanceCounts: Sendable, Equatable {
  var passed = 0
  var failed = 0
  var known = 0
  var unexpectedPasses = 0
  var skipped = 0

  mutating func add(_ verdict: ConformanceVerdict) {
    switch verdict {
    case .passed: passed += 1
    case .unexpectedPass:
      passed += 1
      unexpectedPasses += 1
    case .knownFailure: known += 1
    case .failed: failed += 1
    case .skipped: skipped += 1
    }
  }

  var failsRun: Bool { failed > 0 || unexpectedPasses > 0 }

  /// `824 passed, 0 failed, 0 skipped`, with the known failures and listed passes when there are any.
  var summary: String {
    var parts = ["\(passed) passed", "\(failed) failed"]
    if known > 0 { parts.append("\(known) known failure\(known == 1 ? "" : "s")") }
    if unexpectedPasses > 0 { parts.append("\(unexpectedPasses) listed but passing") }
    parts.append("\(skipped) skipped")
    return parts.joined(separator: ", ")
  }
}

/// The counts per kind and in total.
struct ConformanceTally {
  var byKind: [String: ConformanceCounts] = [:]
  var total = ConformanceCounts()

  mutating func add(_ verdict: ConformanceVerdict, kind: String) {
    byKind[kind, default: ConformanceCounts()].add(verdict)
    total.add(verdict)
  }
}
