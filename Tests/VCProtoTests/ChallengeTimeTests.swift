import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// An auth v2 answer counts only from its challenge's issue time (inclusive) to the lifetime later
/// (exclusive), STANDARDS.md#negotiation-and-auth: an answer at a time before the issue time is refused at any
/// distance, and no pair of times overflows.
@Suite struct ChallengeTimeTests {
  static let key = "untethered-0123456789abcdef0123456789abcdef"
  static let challenge = String(repeating: "a1", count: 32)
  static let lifetimeMs: Int64 = 60_000

  /// The server engine's verdict on a correct answer to a hello sent at `issuedAt`, received at `answeredAt`.
  static func serverAccepts(issuedAt: Int64, answeredAt: Int64) throws -> Bool {
    var server = ServerEngine(
      ServerConfiguration(
        offer: ServerOffer(protocolVersions: ["0.4.0", "0.5.0"], authVersions: [1, 2]), apiKey: key,
        authTimeoutMs: lifetimeMs))
    let hello = try server.handle(.transportOpened(challenge: challenge), now: issuedAt).sentFrames
    var client = ClientEngine(ClientConfiguration(apiKey: key))
    _ = try client.handle(.start, now: 0)
    _ = try client.handle(
      .transportOpened(client.currentTransport!, clientNonce: "00112233445566778899aabbccddeeff"), now: 0)
    let connect = try client.handle(.frameReceived(try #require(hello.first)), now: 0).compactMap { action in
      if case .send(let message) = action { message.object } else { nil }
    }
    #expect(connect.first?["auth_response"]?.stringValue != nil, "the client answered the challenge")
    let verdict = try server.handle(.frameReceived(try #require(connect.first)), now: answeredAt)
    let accepted = verdict.contains { if case .deliver(.authenticated) = $0 { true } else { false } }
    #expect(accepted == (server.state == .authenticated))
    return accepted
  }

  static let before: [Int64] = [1, 1_000, 86_400_000, 1 << 62]

  @Test(arguments: before) func anAnswerBeforeTheIssueTimeIsRefused(_ earlier: Int64) throws {
    let t0: Int64 = 1_768_150_000_000
    #expect(try !Self.serverAccepts(issuedAt: t0, answeredAt: t0 - earlier))
  }

  @Test func theBoundaries() throws {
    let t0: Int64 = 1_768_150_000_000
    #expect(try Self.serverAccepts(issuedAt: t0, answeredAt: t0))
    #expect(try Self.serverAccepts(issuedAt: t0, answeredAt: t0 + Self.lifetimeMs - 1))
    #expect(try !Self.serverAccepts(issuedAt: t0, answeredAt: t0 + Self.lifetimeMs))
    #expect(try !Self.serverAccepts(issuedAt: t0, answeredAt: t0 - 1))
  }

  @Test func theExtremesOfTheClockDoNotOverflow() throws {
    #expect(try !Self.serverAccepts(issuedAt: .max, answeredAt: .min))
    #expect(try !Self.serverAccepts(issuedAt: .min, answeredAt: .max))
    #expect(try !Self.serverAccepts(issuedAt: 0, answeredAt: .min))
    #expect(try Self.serverAccepts(issuedAt: .min, answeredAt: .min + Self.lifetimeMs - 1))
    #expect(try Self.serverAccepts(issuedAt: .max, answeredAt: .max))
  }

  /// The library's ``ChallengeStore`` (``AuthServer``'s clock) at the same distances.
  @Test(arguments: before) func theStoreRefusesAnAnswerBeforeTheIssueTime(_ earlier: Int64) {
    let store = ChallengeStore(lifetime: .milliseconds(Self.lifetimeMs))
    let t0 = ContinuousClock.now
    let challenge = store.issue(now: t0)
    #expect(!store.consume(challenge, now: t0 - .milliseconds(earlier)))
  }

  @Test func theStoreBoundaries() {
    let store = ChallengeStore(lifetime: .milliseconds(Self.lifetimeMs))
    let t0 = ContinuousClock.now
    #expect(store.consume(store.issue(now: t0), now: t0))
    #expect(store.consume(store.issue(now: t0), now: t0 + .milliseconds(Self.lifetimeMs - 1)))
    #expect(!store.consume(store.issue(now: t0), now: t0 + .milliseconds(Self.lifetimeMs)))
    #expect(!store.consume(store.issue(now: t0), now: t0 - .nanoseconds(1)))
  }
}
