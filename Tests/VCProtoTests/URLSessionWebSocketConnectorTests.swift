import Foundation
import Testing

@testable import VCProto
@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct URLSessionWebSocketConnectorTests {
  #if canImport(FoundationNetworking)
    /// On Linux the connector fails at once, naming the cause, instead of a task failing later with
    /// libcurl's words.
    @Test func onLinuxConnectFailsAtOnceNamingFoundationNetworking() async throws {
      let connector = URLSessionWebSocketConnector()
      do {
        _ = try await connector.connect(to: URL(string: "ws://127.0.0.1:9/")!)
        Issue.record("connect succeeded")
      } catch let error as URLSessionWebSocketUnavailable {
        #expect(error.description.contains("FoundationNetworking"))
        #expect(error.description.contains("WebSockets not supported by libcurl"))
        #expect(error.description.contains("VCProtoNIO"))
      }
    }
  #endif

  /// A client host on the URLSession connector reports the failed connect as a lost transport and
  /// backs off, like any other connect failure.
  @Test func aHostOnTheConnectorBacksOffWhenItCannotConnect() async throws {
    #if canImport(FoundationNetworking)
      let clock = TestClock()
      let client = await ClientHost.connect(
        to: URL(string: "ws://127.0.0.1:9/")!, configuration: ClientConfiguration(apiKey: "k"),
        connector: URLSessionWebSocketConnector(), clock: clock)
      let events = EventLog(client.events)
      let down = await events.next { if case .disconnected = $0 { true } else { false } }
      guard case .disconnected(let reason)? = down?.element else {
        Issue.record("no disconnected event")
        return
      }
      #expect(reason.code == "transport_closed")
      #expect(reason.detail?.contains("FoundationNetworking") == true)
      await client.stop()
    #endif
  }
}
