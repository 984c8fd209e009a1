import Foundation
import VCProtoCapture
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto vectors`: runs the golden vectors of every kind against this library, as `vcproto
/// conformance` runs them against a peer: the same tests (``ConformanceTestCase``), the same requests,
/// answered in process by ``SwiftPeer`` and judged by the same ``ConformanceKind/judge(_:vector:)``.
/// One PASS/FAIL line each.
enum VectorsCommand {
  static let spec = CommandSpec(
    name: "vectors",
    abstract: "Run the golden test vectors: one PASS/FAIL line each.",
    example: "vcproto vectors Vectors",
    exitStatus: [
      ExitStatus(0, "all passed"), ExitStatus(1, "any failed"), ExitStatus(2, "usage error or no vectors found"),
    ],
    positionals: [PositionalSpec(name: "dir", help: "The vectors directory (default Vectors).", optional: true)])

  /// Why a vectors file could not be read.
  struct FileProblem: Error {
    let text: String
  }

  /// The vectors of one file, or why there are none (unreadable, not JSON with the parser's reason
  /// and offset, or not an array).
  static func readVectors(_ path: String) -> Result<[JSONValue], FileProblem> {
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failure(FileProblem(text: "cannot read the file"))
    }
    do {
      guard case .array(let vectors) = try JSONReader(limits: vectorFileLimits).parse([UInt8](data)) else {
        return .failure(FileProblem(text: "not a JSON array of vectors"))
      }
      return .success(vectors)
    } catch {
      return .failure(FileProblem(text: "not a JSON array of vectors: \(error)"))
    }
  }

  /// What answers the requests: ``SwiftPeer/reply(kind:input:)``; a test passes another to see a
  /// wrong answer fail.
  typealias Peer = (_ kind: String, _ input: JSONValue) -> JSONValue

  static func run(_ args: ParsedArguments, io: CommandIO, peer: Peer = SwiftPeer.reply) -> Int32 {
    let name = args.positionals.first ?? "Vectors"
    let root = io.resolve(name)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
      io.standardError.line("vcproto vectors: cannot read directory '\(name)'")
      return 2
    }
    let found = ConformanceTestCase.discover(root: root)
    let known = Set(ConformanceKind.all.map(\.folder))
    for folder in ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).sorted()
    where !known.contains(folder) {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: root + "/" + folder, isDirectory: &isDirectory),
        isDirectory.boolValue
      else { continue }
      io.standardOutput.line("skip \(TerminalText.name(folder))/: not a known kind of vector")
    }
    guard !found.tests.isEmpty || !found.problems.isEmpty else {
      let folders = ConformanceKind.all.map(\.folder).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
      io.standardError.line(
        "vcproto vectors: no vectors in '\(name)' (looked in " + folders.map { "\($0)/" }.joined(separator: ", ") + ")")
      return 2
    }
    var passed = 0
    var failed = 0
    for problem in found.problems {
      io.standardOutput.line("FAIL \(TerminalText.message(problem))")
      failed += 1
    }
    for test in found.tests {
      let (ok, why) = verdict(test, peer: peer)
      if ok {
        io.standardOutput.line("PASS \(TerminalText.escaped(test.name))")
        passed += 1
      } else {
        io.standardOutput.line("FAIL \(TerminalText.escaped(test.name)): \(TerminalText.message(why))")
        failed += 1
      }
    }
    io.standardOutput.line("\(passed) passed, \(failed) failed")
    return failed == 0 ? 0 : 1
  }

  /// Runs one test against `peer`: whether it passed, and why not. A test the peer skips fails (this
  /// library answers every kind).
  static func verdict(_ test: ConformanceTestCase, peer: Peer = SwiftPeer.reply) -> (passed: Bool, why: String) {
    guard let kind = ConformanceKind.all.first(where: { $0.name == test.kind }) else {
      return (false, "no kind \(test.kind)")
    }
    let input: JSONValue
    switch kind.input(test.vector) {
    case .success(let value): input = value
    case .failure(let problem): return (false, "bad vector: \(problem.text)")
    }
    let (passed, why) = kind.judge(peer(kind.name, input), vector: test.vector)
    guard let passed else { return (false, "skipped: \(why)") }
    return (passed, why)
  }

  /// Vector files hold many frames and envelopes (an 8 MiB bomb among them): larger than one frame.
  static let vectorFileLimits: JSONLimits = {
    var limits = JSONLimits.default
    limits.maxFrameBytes = 256 * 1024 * 1024
    limits.maxStringBytes = 256 * 1024 * 1024
    return limits
  }()
}
