import Foundation
import NIOPosix
import TransportTestSupport
import VCProto
import VCProtoCapture
import VCProtoNIO

@testable import VCProtoTap

/// The Python peer (`websockets`).
let lockstepScript = repositoryRoot.appendingPathComponent("Transports/Tests/Python/lockstep.py").path

extension Child {
  /// A Python `lockstep.py` peer.
  static func python(_ arguments: [String]) throws -> Child {
    try Child("/usr/bin/env", ["python3", lockstepScript] + arguments)
  }
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
    let observer = try LiveTapObserver(options: options, io: TapIO(standardOutput: output, standardError: log))
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

  /// `vcproto validate --max-findings unlimited [--format json]` on the capture (``CaptureValidator``,
  /// the command's code), in this process.
  func validate(format: String = "text") -> (status: Int32, out: String) {
    let out = OutputSink()
    let validator = CaptureValidator(format: format == "json" ? .json : .text, output: out, maxFindings: nil)
    if let source = ByteSource.open(path: capture.path) {
      try? validator.validate(source, name: capture.path)
    } else {
      validator.unreadable(name: capture.path)
    }
    return (validator.finish(), out.text)
  }
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
