import Foundation
import Testing
import VCProto

@testable import VCProtoCLI

/// A `ClientHost` and a `ServerHost` with a capture each: both captures pass `vcproto validate`, and
/// the client's numbers its transports so a reconnect is a conversation of its own.
@Suite struct HostCaptureTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"

  /// Collects the records a capture writes.
  final class Records: Sendable {
    private let lines = Locked<[UInt8]>([])
    var text: String { String(decoding: lines.withLock { $0 }, as: UTF8.self) }
    func capture() -> JSONLinesCapture {
      JSONLinesCapture { bytes in self.lines.withLock { $0.append(contentsOf: bytes) } }
    }
  }

  @Test func bothCapturesOfAConversationWithAReconnectPassValidate() async throws {
    let network = InMemoryWebSocketNetwork()
    let clientRecords = Records()
    let serverRecords = Records()
    let server = ServerHost(
      configuration: ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.5.0"], authVersions: [1, 2], capabilities: ["heartbeat"]),
        apiKey: Self.key),
      listener: network, capture: serverRecords.capture())
    let serving = Task {
      await server.run { connection in
        for await event in connection.events {
          if case .subscribe(let id, _) = event {
            try? await connection.send(
              .sessionHistory(
                .v0_5_0(SessionHistoryMessageV0_5_0(sessionId: id, messages: [], nextOffset: 0, endOfFile: true))))
          }
        }
      }
    }
    var timing = ClientTiming()
    timing.backoffBaseMs = 1
    timing.backoffFloorMs = 1
    let client = await ClientHost.connect(
      to: URL(string: "ws://in-memory/")!,
      configuration: ClientConfiguration(apiKey: Self.key, capabilities: ["heartbeat"], timing: timing),
      connector: network, capture: clientRecords.capture())
    try await client.subscribe(sessionId: "s-1", cursor: nil)
    var updates = 0
    for await event in client.events {
      guard case .sessionUpdate = event else { continue }
      updates += 1
      if updates == 1 { network.clientEnds[0].drop() } else { break }
    }
    await client.stop()
    await server.stop()
    await serving.value

    for (name, records) in [("client", clientRecords), ("server", serverRecords)] {
      let file = temporaryFile(records.text)
      let run = runCommand(["validate", file.path])
      #expect(run.status == 0, "\(name) capture: \(run.out) \(run.err)")
      #expect(run.out.hasPrefix("OK"), "\(name) capture: \(run.out)")
    }
    // Two transports, two conversations: each has its own connect, with its own fresh client nonce.
    let connects = clientRecords.text.split(separator: "\n").filter { $0.contains(#"\"type\":\"connect\""#) }
    #expect(connects.count == 2)
    #expect(connects.first?.hasPrefix(#"{"connection":0,"#) == true)
    #expect(connects.last?.hasPrefix(#"{"connection":1,"#) == true)
    let nonces = connects.compactMap { line -> String? in
      guard let range = line.range(of: #"client_nonce\":\""#) else { return nil }
      return String(line[range.upperBound...].prefix(32))
    }
    #expect(nonces.count == 2)
    #expect(Set(nonces).count == 2)
  }
}
