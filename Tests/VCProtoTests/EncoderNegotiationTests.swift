import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

@Suite struct EncoderNegotiationTests {
  @Test func refusesExtensionsThePeerDidNotAccept() throws {
    let encoder = MessageEncoder()
    let heartbeat = ServerMessage.heartbeat(HeartbeatMessage(timestamp: "2026-01-11T17:25:32Z"))
    #expect(throws: ExtensionNotNegotiated(messageType: "heartbeat", missingCapabilities: ["heartbeat"])) {
      try encoder.encode(heartbeat, negotiated: [])
    }
    #expect(try encoder.encode(heartbeat, negotiated: ["heartbeat"]) == encoder.encode(heartbeat))

    let plain = ClientMessage.prompt(.v0_2_0(PromptMessageV0_2_0(text: "hi")))
    #expect(try encoder.encode(plain, negotiated: []) == Array(#"{"type":"prompt","text":"hi"}"#.utf8))
    let keyed = ClientMessage.prompt(.v0_3_0(PromptMessageV0_3_0(text: "hi", idempotencyKey: "k-1")))
    #expect(throws: ExtensionNotNegotiated.self) { try encoder.encode(keyed, negotiated: ["heartbeat"]) }
    #expect(keyed.requiredCapabilities == ["idempotent_prompt"])
  }

  @Test func everyExtensionInTheCatalogIsGatedByTheModel() throws {
    // The generated model's requiredCapabilities and the catalog's capability declarations agree.
    var checked = 0
    var withExtensions = 0
    for spec in ProtocolCatalog.modelled.messages where spec.isModelled {
      var object = JSONObject([JSONObject.Member(key: "type", value: .string(spec.type))])
      for field in spec.fields where field.capability != nil || field.required {
        object[field.name] = field.allowedValues?.first ?? sample(field.type)
      }
      let expected = spec.capabilitiesUsed(in: object).map(\.name)
      let value = JSONValue.object(object)
      // Build the typed value without validation (other members may be missing) only when possible.
      guard case .object(let o) = value else { continue }
      let message: [String]
      switch try? MessageDecoder.read(
        o, type: spec.type, direction: spec.direction, version: ProtocolCatalog.modelVersion)
      {
      case .client(let m)?: message = m.requiredCapabilities
      case .server(let m)?: message = m.requiredCapabilities
      default: continue
      }
      #expect(message == expected, "\(spec.type)")
      checked += 1
      if !expected.isEmpty { withExtensions += 1 }
    }
    #expect(checked > 40)
    #expect(withExtensions == 5)  // disconnect, heartbeat, draining; prompt.idempotency_key, error.message_id
  }

  func sample(_ type: FieldType) -> JSONValue {
    switch type {
    case .string(.uuid): return "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"
    case .string(.dateTime): return "2026-01-11T17:25:32Z"
    case .string(.hex): return "00ff"
    case .string(.version): return "0.2.0"
    case .string: return "x"
    case .integer: return 1
    case .number: return 1
    case .boolean: return true
    case .array: return []
    case .object: return .object(JSONObject())
    case .any, .oneOf: return "x"
    case .shape: return .null
    }
  }
}
