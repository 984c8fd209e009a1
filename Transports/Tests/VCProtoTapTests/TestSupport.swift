import Foundation
import NIOPosix
import VCProto
import VCProtoCLI
import VCProtoNIO

@testable import VCProtoTap

/// The repository root (four levels above this file).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The Python peer (`websockets`).
let lockstepScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Python/lockstep.py").path

/// A fresh temporary directory.
func temporaryDirectory() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcproto-tap-tests-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A child process whose standard output is collected, killed when the test is done with it.
final class Child: @unchecked Sendable {
  let process = Process()
  private let lock = NSLock()
  private var output = ""
  private var errors = ""

  init(_ executable: String, _ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    out.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else { return }
      self.lock.withLock { self.output += String(decoding: data, as: UTF8.self) }
    }
    err.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else { return }
      self.lock.withLock { self.errors += String(decoding: data, as: UTF8.self) }
    }
    try process.run()
  }

  /// A Python `lockstep.py` peer.
  static func python(_ arguments: [String]) throws -> Child {
    try Child("/usr/bin/env", ["python3", lockstepScript] + arguments)
  }

  var stdout: String { lock.withLock { output } }
  var stderr: String { lock.withLock { errors } }

  /// Waits (at most `seconds`) for a line of standard output starting with `prefix`; returns it.
  func line(startingWith prefix: String, seconds: Double = 20) async throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    throw TestFailure("no line '\(prefix)…' within \(seconds) s; stdout: \(stdout) stderr: \(stderr)")
  }

  /// Waits (at most `seconds`) for the process to end; its exit status.
  func exitStatus(seconds: Double = 30) async throws -> Int32 {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning {
      guard Date() < deadline else {
        kill()
        throw TestFailure("still running after \(seconds) s; stdout: \(stdout) stderr: \(stderr)")
      }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    return process.terminationStatus
  }

  /// Ends the process (SIGKILL) if it still runs.
  func kill() {
    if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
  }

  deinit { kill() }
}

struct TestFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A tap running in this process, its findings in a buffer and its capture in a temporary file.
struct RunningTap {
  let tap: Tap
  let observer: LiveTapObserver
  let output: OutputSink
  let log: OutputSink
  let capture: URL

  /// Starts a tap on 127.0.0.1 (any free port) relaying to `upstream`.
  static func start(
    upstream: String, format: String = "text", limits: WebSocketLimits = .default, maxConnections: Int = 1_024
  ) async throws -> RunningTap {
    let capture = temporaryDirectory().appendingPathComponent("capture.jsonl")
    let options = try TapOptions.parse([
      "--listen", "127.0.0.1:0", "--upstream", upstream, "--capture", capture.path, "--format", format,
    ])
    let output = OutputSink()
    let log = OutputSink()
    let observer = try LiveTapObserver(options: options, io: CommandIO(standardOutput: output, standardError: log))
    let tap = try await Tap.start(
      host: "127.0.0.1", port: 0, upstream: options.upstream!, limits: limits, log: TapLog(sink: log),
      observer: observer, maxConnections: maxConnections)
    return RunningTap(tap: tap, observer: observer, output: output, log: log, capture: capture)
  }

  /// `ws://127.0.0.1:PORT` plus `target`.
  func url(_ target: String = "/") -> String { "ws://127.0.0.1:\(tap.port)\(target)" }

  /// Stops listening, flushes the capture, prints the summary; the tap's whole standard output.
  func finish() async -> String {
    await tap.stop()
    observer.finish()
    return output.text
  }

  /// `vcproto validate --max-findings unlimited [--format json]` on the capture, in this process.
  func validate(format: String = "text") -> (status: Int32, out: String) {
    let out = OutputSink()
    var io = CommandIO(standardOutput: out, standardError: OutputSink())
    io.currentDirectory = capture.deletingLastPathComponent().path
    let status = VCProtoCommand.main(
      ["validate", "--max-findings", "unlimited", "--format", format, capture.path], io)
    return (status, out.text)
  }
}

/// A port nothing listens on (bound to 0, then closed).
func freePort() throws -> Int {
  let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .bind(host: "127.0.0.1", port: 0).wait()
  let port = channel.localAddress!.port!
  try channel.close().wait()
  return port
}

/// The test script: Samples/faulty-0.5.0.jsonl (faults planted by both sides) with binary
/// messages both ways and non-ASCII text added.
func faultyScript() throws -> URL {
  let sample = try String(
    contentsOf: repositoryRoot.appendingPathComponent("Samples/faulty-0.5.0.jsonl"), encoding: .utf8)
  var lines = sample.split(separator: "\n").map(String.init)
  lines.insert(#"{"direction":"client_to_server","opcode":2,"data":"AAECAwT/"}"#, at: 3)
  lines.insert(#"{"direction":"server_to_client","opcode":2,"data":"VkMBAgM="}"#, at: 5)
  lines.insert(#"{"direction":"client_to_server","data":"{\"type\":\"ping\",\"note\":\"héllo ✓ 🙂\"}"}"#, at: 7)
  let url = temporaryDirectory().appendingPathComponent("script.jsonl")
  try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
  return url
}

/// The lines of a run's output that are findings (not the summary).
func findingLines(_ output: String) -> [String] {
  output.split(separator: "\n").map(String.init).filter {
    $0.contains(": error: ") || $0.contains(": warning: ") || $0.hasPrefix("{\"source\"")
  }
}
