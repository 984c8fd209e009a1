import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The connection engines hold the API key (their configuration, the `connect` they sent) and pass
/// frames that carry it (`ClientAction.send(connect)`, `ServerEvent.frameReceived(connect)`). A host
/// that logs an engine, a configuration, an action or an event must not log the key: every printed
/// form masks it (the redaction of STANDARDS.md#logging: secret members and key-shaped text).
@Suite struct EngineSecretDescriptionTests {
  static let key = SecretDescriptionTests.key
  /// Not key-shaped: only masking by member name or by the type itself hides it.
  static let canary = SecretDescriptionTests.canary

  static func hello() throws -> JSONObject {
    try #require(
      JSONReader().parse(
        #"{"type":"hello","message":"Welcome to voice-code backend","version":"0.5.0","auth_version":1,"instructions":"Send connect message with api_key"}"#
      ).objectValue)
  }

  @Test func clientConfigurationAndEngineMaskTheKey() throws {
    let configuration = ClientConfiguration(apiKey: Self.canary, allowAuthV1: true, sessionId: "ios-1")
    SecretDescriptionTests.expectHidden(configuration, [Self.canary])
    #expect(String(describing: configuration).contains("ios-1"))  // what is not secret is still shown
    var engine = ClientEngine(configuration)
    _ = try engine.handle(.start, now: 0)
    _ = try engine.handle(
      .transportOpened(engine.currentTransport!, clientNonce: String(repeating: "ab", count: 16)), now: 1)
    let actions = try engine.handle(.frameReceived(Self.hello()), now: 2)
    // The engine sent the key in a connect (auth v1) and keeps that connect.
    let sent = actions.compactMap { action -> JSONObject? in
      if case .send(let message) = action { return message.object }
      return nil
    }
    #expect(sent.contains { $0["api_key"]?.stringValue == Self.canary })
    SecretDescriptionTests.expectHidden(engine, [Self.canary])
    SecretDescriptionTests.expectHidden(actions, [Self.canary])
    for action in actions { SecretDescriptionTests.expectHidden(action, [Self.canary]) }
    for frame in sent {
      SecretDescriptionTests.expectHidden(frame, [Self.canary])
      SecretDescriptionTests.expectHidden(JSONValue.object(frame), [Self.canary])
      // A printed frame is its JSON text, the secret masked.
      if frame["type"]?.stringValue == "connect" {
        #expect(String(describing: frame).hasPrefix(#"{"type":"connect","api_key":"«redacted»""#))
      }
    }
  }

  @Test func serverConfigurationEngineAndEventsMaskTheKey() throws {
    let configuration = ServerConfiguration(offer: .realHead, apiKey: Self.canary)
    SecretDescriptionTests.expectHidden(configuration, [Self.canary])
    var engine = ServerEngine(configuration)
    _ = try engine.handle(.transportOpened(challenge: nil, connectionId: "conn-1"), now: 0)
    let connect = try #require(
      JSONReader().parse(#"{"type":"connect","api_key":"\#(Self.canary)","protocol_version":"0.5.0"}"#).objectValue)
    let event = ServerEvent.frameReceived(connect)
    SecretDescriptionTests.expectHidden(event, [Self.canary])
    let actions = try engine.handle(event, now: 1)
    #expect(engine.state == .authenticated)
    SecretDescriptionTests.expectHidden(engine, [Self.canary])
    SecretDescriptionTests.expectHidden(actions, [Self.canary])
  }

  /// Key-shaped text anywhere in a frame (a prompt that quotes the key) is masked too, and member
  /// names that fold to a secret name mask their value whatever its JSON type.
  @Test func framesMaskKeyShapedTextAndSecretMembersOfAnyType() throws {
    let frame = try #require(
      JSONReader().parse(
        #"{"type":"prompt","text":"my key is \#(Self.key)","API_KEY":["\#(Self.canary)"],"nested":{"auth\u005fresponse":"\#(Self.canary)"}}"#
      ).objectValue)
    SecretDescriptionTests.expectHidden(frame, [Self.key, Self.canary])
    SecretDescriptionTests.expectHidden(ClientEvent.send(frame, requestId: "r1"), [Self.key, Self.canary])
    SecretDescriptionTests.expectHidden(
      ClientApplicationEvent.answered(requestId: "r1", frame: frame), [Self.key, Self.canary])
    #expect(String(describing: frame).contains("my key is «redacted»"))
    // The frame itself is unchanged: only its printed forms are redacted.
    #expect(frame["text"]?.stringValue == "my key is \(Self.key)")
  }
}
