import Foundation
import Testing
import TransportTestSupport
import VCProtoCapture
import VCProtoNIO

@testable import VCProtoTap

/// `vcproto-tap`'s command line: usage errors in `vcproto`'s style, and SIGINT.
@Suite struct TapCommandTests {
  func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
    let out = OutputSink()
    let err = OutputSink()
    let status = TapCommand.main(arguments, TapIO(standardOutput: out, standardError: err))
    return (status, out.text, err.text)
  }

  @Test func usageErrorsExit2AndNameTheArgument() {
    let cases: [([String], String)] = [
      ([], "missing option '--listen'"),
      (["--listen", "127.0.0.1:0"], "missing option '--upstream'"),
      (["--listen", "nowhere", "--upstream", "ws://a:1"], "invalid value 'nowhere' for '--listen'"),
      (["--listen", "127.0.0.1:0", "--upstream", "wss://a:1"], "invalid value 'wss://a:1' for '--upstream'"),
      (["--listen", "127.0.0.1:0", "--upstream", "ws://a:1", "--format", "xml"], "invalid value 'xml' for '--format'"),
      (["--listen", "127.0.0.1:0", "--upstream", "ws://a:1", "--fromat", "json"], "unknown option '--fromat'"),
      (["--listen"], "option '--listen' needs a value"),
    ]
    for (arguments, message) in cases {
      let run = run(arguments)
      #expect(run.status == 2)
      #expect(run.err.hasPrefix("vcproto-tap: \(message)"), "\(run.err)")
      #expect(run.err.contains("usage: vcproto-tap --listen HOST:PORT --upstream"))
      #expect(run.out.isEmpty)
    }
    #expect(run(["--help"]).status == 0)
    #expect(run(["--help"]).out.contains("USAGE: vcproto-tap"))
  }

  @Test func anUnwritableCaptureExits1() {
    let run = run([
      "--listen", "127.0.0.1:0", "--upstream", "ws://127.0.0.1:1", "--capture", "/nonexistent/dir/c.jsonl",
    ])
    #expect(run.status == 1)
    #expect(run.err.contains("cannot write the capture"))
  }

  @Test func urlsAndTargets() {
    #expect(WebSocketURL("ws://example.com")?.target == "/")
    #expect(WebSocketURL("ws://127.0.0.1:8080/a?b=1")?.port == 8080)
    #expect(WebSocketURL("ws://[::1]:9/x")?.host == "::1")
    #expect(WebSocketURL("wss://example.com") == nil)
    #expect(WebSocketURL("ws://h:99999") == nil)
    #expect(TapHandshake.upstreamTarget(base: "/", request: "/?x=1") == "/?x=1")
    #expect(TapHandshake.upstreamTarget(base: "/api/", request: "/ws?x=1") == "/api/ws?x=1")
  }

  /// The executable itself: a message through it, then SIGINT flushes the capture and exits 0.
  @Test(.timeLimit(.minutes(1)))
  func sigintFlushesTheCaptureAndExits0() async throws {
    // The executable is built beside the test bundle (the test target depends on it).
    let candidates = [
      Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ].map { $0.appendingPathComponent("vcproto-tap").path }
    let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    let path = try #require(found, "vcproto-tap not found in \(candidates)")
    let backend = try await WebSocketListener.bind(host: "127.0.0.1", port: 0)
    Task {
      while let connection = await backend.acceptConnection() {
        Task { while case .message(let message) = await connection.receive() { try await connection.send(message) } }
      }
    }
    let capture = temporaryDirectory().appendingPathComponent("c.jsonl")
    let tap = try Child(
      path, ["--listen", "127.0.0.1:0", "--upstream", "ws://127.0.0.1:\(backend.port)", "--capture", capture.path])
    var port = ""
    let deadline = Date().addingTimeInterval(20)
    while port.isEmpty, Date() < deadline {
      if let range = tap.stderr.range(of: "listening on 127.0.0.1:") {
        port = String(tap.stderr[range.upperBound...].prefix { $0.isNumber })
      }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    let app = try await WebSocketClient.connect(to: WebSocketURL("ws://127.0.0.1:\(port)")!)
    try await app.send(.text(#"{"type":"ping"}"#))
    _ = await app.receive()
    kill(tap.process.processIdentifier, SIGINT)
    #expect(try await tap.exitStatus() == 0)
    let written = try String(contentsOf: capture, encoding: .utf8).split(separator: "\n")
    #expect(written.count == 2)
    #expect(written.first?.hasPrefix(#"{"connection":1,"direction":"client_to_server","time":"#) == true)
    // The summary at the exit (the echoed ping travelled server_to_client: wrong_direction).
    #expect(tap.stdout.contains("FAIL \(capture.path): 2 frames"))
    await app.close()
    await backend.close()
  }
}
