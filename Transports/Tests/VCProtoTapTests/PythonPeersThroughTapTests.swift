import Foundation
import Testing
import TransportTestSupport
import VCProtoNIO

@testable import VCProtoTap

/// A Python `websockets` client and server talk through the tap (127.0.0.1 only; every wait has a
/// deadline and every child process is killed at the end).
@Suite(.serialized) struct PythonPeersThroughTapTests {
  @Test(.timeLimit(.minutes(1)))
  func bytesKindsAndCloseCodesCrossUnchangedAndFaultsAreReportedLive() async throws {
    let script = try faultyScript()
    let server = try Child.python(["server", "0", script.path])
    let port = try await server.line(startingWith: "port ").dropFirst(5)
    let tap = try await RunningTap.start(upstream: "ws://127.0.0.1:\(port)/base")
    let client = try Child.python(["client", tap.url("/app/ws?x=1"), script.path, "--close", "4000"])
    // Each peer checks every message of the other arrived with the same bytes and kind, in order.
    #expect(try await client.exitStatus() == 0, "\(client.stdout)\(client.stderr)")
    #expect(try await server.exitStatus() == 0, "\(server.stdout)\(server.stderr)")
    #expect(client.stdout.contains("client ok 25 messages close 4000 subprotocol vcproto.test"))
    #expect(server.stdout.contains("server ok 25 messages close 4000 path /base/app/ws?x=1 subprotocol vcproto.test"))
    let live = await tap.finish()
    let validated = tap.validate()
    // The whole output, findings and summary, is what validate prints on the capture.
    #expect(live == validated.out)
    #expect(validated.status == 1)
    // Planted faults from both sides, each naming the connection.
    #expect(live.contains("(connection 1): subscribe /from_offset: error:"))
    #expect(live.contains("(connection 1): session_history /messages/0/offset: error:"))
    #expect(live.contains("unexpected_binary_frame"))
    #expect(live.contains("FAIL \(tap.capture.path): 25 frames"))
  }

  @Test(.timeLimit(.minutes(1)))
  func jsonFindingsAreValidatesJSONFindings() async throws {
    let script = try faultyScript()
    let server = try Child.python(["server", "0", script.path])
    let port = try await server.line(startingWith: "port ").dropFirst(5)
    let tap = try await RunningTap.start(upstream: "ws://127.0.0.1:\(port)", format: "json")
    let client = try Child.python(["client", tap.url(), script.path])
    #expect(try await client.exitStatus() == 0, "\(client.stdout)\(client.stderr)")
    _ = try await server.exitStatus()
    let live = await tap.finish()
    #expect(live == tap.validate(format: "json").out)
    #expect(live.contains(#""connection":1,"direction":"client_to_server","type":"subscribe""#))
  }

  @Test(.timeLimit(.minutes(2)))
  func fortyConnectionsAtOnce() async throws {
    let script = try faultyScript()
    let server = try Child.python(["server", "0", script.path, "40"])
    let port = try await server.line(startingWith: "port ").dropFirst(5)
    let tap = try await RunningTap.start(upstream: "ws://127.0.0.1:\(port)")
    let clients = try Child.python(["client", tap.url(), script.path, "40"])
    #expect(try await clients.exitStatus(seconds: 90) == 0, "\(clients.stderr)")
    #expect(try await server.exitStatus(seconds: 30) == 0, "\(server.stderr)")
    #expect(clients.stdout.split(separator: "\n").filter { $0.hasPrefix("client ok 25 messages") }.count == 40)
    let live = await tap.finish()
    let validated = tap.validate().out
    // Connections ran at once: the same lines, in another order across connections.
    #expect(findingLines(live).sorted() == findingLines(validated).sorted())
    #expect(live.split(separator: "\n").last == validated.split(separator: "\n").last)
    #expect(live.contains("FAIL \(tap.capture.path): 1000 frames"))
    for id in 1...40 { #expect(live.contains("(connection \(id)): subscribe /from_offset")) }
  }

  @Test(.timeLimit(.minutes(1)))
  func upstreamDownThenBack() async throws {
    let script = try faultyScript()
    let port = try freePort()
    let tap = try await RunningTap.start(upstream: "ws://127.0.0.1:\(port)")
    let started = Date()
    let refused = try Child.python(["client", tap.url(), script.path])
    #expect(try await refused.exitStatus() != 0)
    #expect(refused.stderr.contains("HTTP 502"))
    #expect(Date().timeIntervalSince(started) < 10)
    #expect(tap.log.text.contains("connection 1: the backend ws://127.0.0.1:\(port)/ could not be reached"))
    // The backend comes back on the same port: the next connection goes through.
    let server = try Child.python(["server", String(port), script.path])
    _ = try await server.line(startingWith: "port ")
    let client = try Child.python(["client", tap.url(), script.path])
    #expect(try await client.exitStatus() == 0, "\(client.stderr)")
    #expect(try await server.exitStatus() == 0)
    let live = await tap.finish()
    #expect(live == tap.validate().out)
    #expect(live.contains("(connection 2)"))
  }

  @Test(.timeLimit(.minutes(1)))
  func aDyingBackendClosesTheAppPromptlyWith1011() async throws {
    let script = try faultyScript()
    let server = try Child.python(["server", "0", script.path])
    let port = try await server.line(startingWith: "port ").dropFirst(5)
    let tap = try await RunningTap.start(upstream: "ws://127.0.0.1:\(port)")
    let app = try await WebSocketClient.connect(
      to: WebSocketURL(tap.url())!, headers: [("Sec-WebSocket-Protocol", "vcproto.test")])
    #expect(app.subprotocol == "vcproto.test")
    // The backend's first message is its hello; then it is killed.
    guard case .message(let hello) = await app.receive() else { throw TestFailure("no hello") }
    #expect(String(decoding: hello.bytes, as: UTF8.self).contains("\"hello\""))
    server.kill()
    let killed = Date()
    while case .message = await app.receive() {}
    #expect(Date().timeIntervalSince(killed) < 3)
    #expect(await app.peerCloseCode() == .internalError)
    #expect(tap.log.text.contains("the backend closed the connection without a close frame"))
    _ = await tap.finish()
  }
}
