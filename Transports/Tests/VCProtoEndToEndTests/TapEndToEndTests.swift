import Foundation
import Testing
import TransportTestSupport
import VCProto
import VCProtoCapture
import VCProtoNIO

@testable import VCProtoTap

/// The Swift client host talks to the Python backend through `vcproto-tap` (in this process): the
/// tap reports no finding, and its capture is what `vcproto validate` finds clean too.
@Suite struct TapEndToEndTests {
  @Test(.timeLimit(.minutes(1)))
  func theSwiftClientHostAndThePythonBackendThroughTheTap() async throws {
    let session = try SessionFile.make(messages: 7)
    let backend = try await PythonBackend.start(session: session, ["--page", "3"])
    defer { backend.kill() }
    let capture = temporaryDirectory().appendingPathComponent("tap.jsonl")
    let options = try TapOptions.parse([
      "--listen", "127.0.0.1:0", "--upstream", backend.url, "--capture", capture.path,
    ])
    let output = OutputSink()
    let log = OutputSink()
    let observer = try LiveTapObserver(options: options, io: TapIO(standardOutput: output, standardError: log))
    let tap = try await Tap.start(
      host: "127.0.0.1", port: 0, upstream: options.upstream!, limits: .default, log: TapLog(sink: log),
      observer: observer, maxConnections: 16)

    let host = await ClientHost.connect(
      to: URL(string: "ws://127.0.0.1:\(tap.port)/")!, configuration: EndToEnd.configuration(),
      connector: EndToEnd.connector)
    let events = EventLog(host.events)
    try await events.wait("connected") { $0.isConnected }
    try await host.subscribe(sessionId: session.id)
    try await events.waitForTexts((0..<7).map { "m\($0)" })
    let answer = try await host.send(EndToEnd.prompt("tapped", session: session.id))
    guard case .ack = answer else { throw TestFailure("answered \(answer)") }
    try await events.waitForTexts(["tapped", "echo: tapped"])
    await host.stop()

    await tap.stop()
    observer.finish()
    let live = output.text
    #expect(findings(live).isEmpty, "\(live)")
    #expect(live.contains("OK \(capture.path)"), "\(live)")
    let validated = validate(capture)
    #expect(validated.status == 0, "\(validated.out)")
    #expect(validated.out == live)
  }

  /// The lines of the tap's output that are findings.
  func findings(_ output: String) -> [Substring] {
    output.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }
  }
}
