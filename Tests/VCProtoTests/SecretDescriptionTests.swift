import Testing
import VCProtoCodegen

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// No printed form of a value that holds a secret shows it: `print`, interpolation,
/// `String(describing:)`, `String(reflecting:)`, `dump`, for the value and every wrapper around it.
@Suite struct SecretDescriptionTests {
  static let key = "untethered-00112233445566778899aabbccddeeff"
  /// A secret that is not key-shaped, so only the type's own masking can hide it (hex, so it is a
  /// valid `auth_response` too).
  static let canary = "c0ffee15deadbeefc0ffee15deadbeefc0ffee15deadbeefc0ffee15deadbeef"

  /// Every printed form of `value`.
  static func printedForms(_ value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    var printed = ""
    print(value, to: &printed)
    var debugPrinted = ""
    debugPrint(value, to: &debugPrinted)
    return [
      String(describing: value), String(reflecting: value), "\(value)", dumped, printed, debugPrinted,
      String(describing: [value]), String(describing: Optional(value) as Any),
    ]
  }

  static func expectHidden(_ value: Any, _ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    for form in printedForms(value) {
      for secret in secrets {
        #expect(!form.contains(secret), "secret shown in: \(form)", sourceLocation: sourceLocation)
        #expect(!form.contains(String(secret.suffix(20))), "secret shown in: \(form)", sourceLocation: sourceLocation)
      }
    }
  }

  @Test func authClientAndServerMaskTheKey() {
    let client = AuthClient(apiKey: Self.canary)
    let server = AuthServer(apiKey: Self.canary)
    Self.expectHidden(client, [Self.canary])
    Self.expectHidden(server, [Self.canary])
    #expect(String(describing: client) == "AuthClient(apiKey: «redacted», allowAuthV1: \(client.allowAuthV1))")
    #expect(String(describing: server) == "AuthServer(apiKey: «redacted», acceptedAuthVersions: [1, 2])")
  }

  @Test func connectAndItsWrappersMaskBothSecrets() throws {
    let connect = ConnectMessage(
      apiKey: Self.canary, sessionId: "s-1", authResponse: String(Self.canary.reversed()))
    let secrets = [Self.canary, String(Self.canary.reversed())]
    Self.expectHidden(connect, secrets)
    Self.expectHidden(ClientMessage.connect(connect), secrets)
    Self.expectHidden(AnyMessage.client(.connect(connect)), secrets)
    // What is not secret is still shown.
    #expect(String(describing: connect).contains("s-1"))
    #expect(String(describing: connect).hasPrefix("ConnectMessage({\"type\":\"connect\""))
  }

  @Test func claudeRecordMasksSecretsAndKeys() throws {
    let raw = try #require(
      JSONReader().parse(
        #"{"type":"user","message":{"role":"user","content":"my key is \#(Self.key)"},"api_key":"\#(Self.canary)"}"#
      ).objectValue)
    let record = ClaudeRecord(raw: raw)
    Self.expectHidden(record, [Self.key, Self.canary])
    #expect(String(describing: record).contains("my key is «redacted»"))
    // The record itself is unchanged: only its printed forms are redacted.
    #expect(record.text == "my key is \(Self.key)")
    // Inside the typed 0.3.0 push (an element of alternative types) it stays masked.
    let update = SessionUpdatedMessageV0_3_0(sessionId: "s", messages: [.claudeRecord(record)])
    Self.expectHidden(HistoryMessageOrClaudeRecord.claudeRecord(record), [Self.key, Self.canary])
    Self.expectHidden(ServerMessage.sessionUpdated(.v0_3_0(update)), [Self.key, Self.canary])
  }

  /// Every secret member of every catalog: a decoded message carrying a value in it never prints
  /// that value, and the generated `Secrets.swift` lists exactly the types that hold one.
  @Test func everyCatalogSecretIsCovered() throws {
    var covered: Set<String> = []
    for catalog in ProtocolCatalog.all {
      let version = try #require(catalog.knownVersion)
      for message in catalog.messages where message.isModelled {
        let secrets = message.fields.filter(\.secret)
        guard !secrets.isEmpty else { continue }
        // One secret member at a time (rules such as "exactly one of api_key, auth_response").
        for field in secrets {
          var object = JSONObject([
            JSONObject.Member(key: "type", value: .string(message.type)),
            JSONObject.Member(key: field.name, value: .string(Self.canary)),
          ])
          // A member the secret one requires (auth_response needs client_nonce): a hex value.
          for case .requires(field.name, let other) in message.rules {
            object.members.append(JSONObject.Member(key: other, value: .string(String(repeating: "ab", count: 16))))
          }
          covered.insert("\(message.type).\(field.name)")
          let wrapper: Any
          switch try MessageDecoder.read(object, type: message.type, direction: message.direction, version: version) {
          case .client(let m): wrapper = m
          case .server(let m): wrapper = m
          case .unknown(let o): wrapper = o
          }
          // The wrapper enum and the payload inside it.
          let payload = try #require(Mirror(reflecting: wrapper).children.first?.value)
          #expect("\(type(of: payload))" == SwiftModelGenerator.payloadName(message.type))
          Self.expectHidden(wrapper, [Self.canary])
          Self.expectHidden(payload, [Self.canary])
        }
      }
      for shape in catalog.shapes.values where shape.fields.contains(where: \.secret) {
        covered.insert(shape.name)
      }
    }
    #expect(covered.contains("connect.api_key") && covered.contains("connect.auth_response"))
    let generated = SwiftModelGenerator().secretHoldingTypes.map(\.name)
    let expected =
      ProtocolCatalog.latest.messages.filter { $0.isModelled && $0.fields.contains(where: \.secret) }.map {
        SwiftModelGenerator.payloadName($0.type)
      }
      + ProtocolCatalog.latest.shapeOrder.filter { ProtocolCatalog.latest.shapes[$0]!.fields.contains(where: \.secret) }
    #expect(generated == expected)
  }
}
