import Foundation
import TransportTestSupport

/// The Python backend (`Tests/Python/backend.py`: tools/vcpeer's server engine behind `websockets`)
/// as a child process on 127.0.0.1. It prints its port, stops on SIGTERM, can be frozen (SIGSTOP)
/// and restarted on the same port.
final class PythonBackend: @unchecked Sendable {
  /// The key it accepts unless told otherwise (`--api-key`).
  static let apiKey = "untethered-0123456789abcdef0123456789abcdef"
  static let script = repositoryRoot.appendingPathComponent("Transports/Tests/Python/backend.py").path

  private(set) var child: Child
  let arguments: [String]
  let port: Int

  private init(child: Child, arguments: [String], port: Int) {
    self.child = child
    self.arguments = arguments
    self.port = port
  }

  /// Starts the backend serving `session` (and whatever `options` say: `--protocol`, `--auth`,
  /// `--capability`, `--page`, ...) on any free port.
  static func start(session: SessionFile, _ options: [String] = []) async throws -> PythonBackend {
    let arguments = ["--session", session.url.path, "--poll-ms", "20", "--turn-delay-ms", "50"] + options
    let child = try Child("/usr/bin/env", ["python3", script, "--port", "0"] + arguments)
    let port = try await Int(child.line(startingWith: "port ").dropFirst(5))!
    return PythonBackend(child: child, arguments: arguments, port: port)
  }

  /// `ws://127.0.0.1:PORT/`.
  var url: String { "ws://127.0.0.1:\(port)/" }

  /// Kills it (SIGKILL: no close frame, the sockets just go).
  func kill() { child.kill() }

  /// Starts it again on the same port (after ``kill()``), retrying while the port is not yet free.
  func restart() async throws {
    var lastError: Error = TestFailure("not started")
    for _ in 0..<50 {
      let child = try Child("/usr/bin/env", ["python3", Self.script, "--port", String(port)] + arguments)
      do {
        _ = try await child.line(startingWith: "port ", seconds: 10)
        self.child = child
        return
      } catch {
        lastError = TestFailure("\(error); \(child.stderr)")
        child.kill()
        try await Task.sleep(nanoseconds: 100_000_000)
      }
    }
    throw lastError
  }

  deinit { child.kill() }
}

/// A Claude session file (JSON Lines) in a temporary directory: user and assistant records, with
/// a record that carries no message after the third (offsets have gaps, as in real files).
struct SessionFile {
  let url: URL
  var id: String { url.deletingPathExtension().lastPathComponent }

  /// A file of `messages` alternating user and assistant records.
  static func make(messages: Int, id: String = UUID().uuidString.lowercased()) throws -> SessionFile {
    let file = SessionFile(url: temporaryDirectory().appendingPathComponent("\(id).jsonl"))
    try file.write(messages: messages, prefix: "m")
    return file
  }

  /// Writes the file anew (to a temporary file, then renamed over it: a new first line, so the
  /// backend sees another file).
  func write(messages: Int, prefix: String) throws {
    var lines: [String] = []
    for index in 0..<messages {
      let role = index % 2 == 0 ? "user" : "assistant"
      let content = role == "user" ? "\"\(prefix)\(index)\"" : #"[{"type":"text","text":"\#(prefix)\#(index)"}]"#
      lines.append(
        #"{"type":"\#(role)","uuid":"\#(UUID().uuidString.lowercased())","timestamp":"2026-11-28T16:00:0\#(index % 10)Z","#
          + #""sessionId":"\#(id)","cwd":"/tmp","isSidechain":false,"message":{"role":"\#(role)","content":\#(content)}}"#
      )
      if index == 2 { lines.append(#"{"type":"summary","summary":"no message here"}"#) }
    }
    let scratch = url.deletingLastPathComponent().appendingPathComponent("\(id).tmp")
    try (lines.joined(separator: "\n") + "\n").write(to: scratch, atomically: false, encoding: .utf8)
    guard rename(scratch.path, url.path) == 0 else { throw TestFailure("rename failed: \(errno)") }
  }
}
