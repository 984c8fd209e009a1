import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `Codable` for what an app stores: every typed message encodes through Foundation's `JSONEncoder` to
/// the JSON value ``MessageEncoder`` writes, and decodes through `JSONDecoder` by the same rules as
/// ``MessageDecoder``, with the version from `userInfo`; cursors and numbers keep their values.
@Suite struct CodableTests {
  typealias Vector = MessageVectorTests.Vector

  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  static func decoder(_ version: ProtocolVersion) -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.userInfo[ProtocolVersion.codingUserInfoKey] = version
    return decoder
  }

  /// The same JSON value: objects compared without regard to member order, numbers by their exact
  /// literal text.
  static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.object(let x), .object(let y)):
      guard x.count == y.count else { return false }
      return x.members.allSatisfy { m in y[m.key].map { same(m.value, $0) } ?? false }
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
    default: return a == b
    }
  }

  /// `value` with every object's members in the order of their names' UTF-8 bytes (the order
  /// `Codable` decoding gives them).
  static func sorted(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let o):
      return .object(
        JSONObject(
          o.members.map { JSONObject.Member(key: $0.key, value: sorted($0.value)) }
            .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }))
    case .array(let a): return .array(a.map(sorted))
    default: return value
    }
  }

  static func text(_ value: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    writer.write(value)
    return writer.bytes
  }

  static func options(_ v: Vector) -> ValidationOptions {
    ValidationOptions(
      direction: MessageDirection(rawValue: v.direction), version: ProtocolVersion(rawValue: v.protocol_version)!)
  }

  /// Every valid message vector of every version: `JSONEncoder` gives the JSON value `MessageEncoder`
  /// gives, and `JSONDecoder` gives the message back (with its free-form objects' members in name order).
  @Test func everyValidVectorRoundTripsThroughFoundation() throws {
    var checked = 0
    var unchanged = 0
    for v in try MessageVectorTests.vectors() where v.valid {
      let version = ProtocolVersion(rawValue: v.protocol_version)!
      let message = try MessageDecoder(options: Self.options(v)).decode(v.frame)
      let canonical = try JSONReader().parse(MessageEncoder().encode(message))
      let stored = try Self.encoder().encode(message)
      let storedValue = try JSONReader().parse(Array(stored))
      #expect(
        Self.same(storedValue, canonical), "\(v.protocol_version) \(v.id): \(String(decoding: stored, as: UTF8.self))")

      // Members come back in name order: the message as the decoder reads its sorted frame.
      let expected = try MessageDecoder(options: Self.options(v)).decode(Self.text(Self.sorted(canonical)))
      let decoded = try Self.decoder(version).decode(AnyMessage.self, from: stored)
      #expect(decoded == expected, "\(v.protocol_version) \(v.id)")
      if decoded == message { unchanged += 1 }

      // The direction's own type, the same way.
      switch message {
      case .client(let m):
        let data = try Self.encoder().encode(m)
        #expect(data == stored, "\(v.id)")
        #expect(try Self.decoder(version).decode(ClientMessage.self, from: data) == expected.clientMessage)
      case .server(let m):
        let data = try Self.encoder().encode(m)
        #expect(data == stored, "\(v.id)")
        #expect(try Self.decoder(version).decode(ServerMessage.self, from: data) == expected.serverMessage)
      case .unknown: break
      }
      checked += 1
    }
    #expect(checked > 150 * ProtocolVersion.allCases.count)
    // Most messages have no free-form object whose members are out of name order.
    #expect(unchanged > checked / 2, "\(unchanged) of \(checked) unchanged")
  }

  /// Every invalid vector whose frame Foundation reads as the same JSON value: decoding through
  /// `JSONDecoder` fails with exactly the vector's findings, the first one's pointer as coding path.
  @Test func everyInvalidVectorFailsWithItsFindings() throws {
    var checked = 0
    for v in try MessageVectorTests.vectors() where !v.valid {
      // Foundation must see the frame as vcproto does (no JSON-level fault, no duplicate member, no
      // number it would re-spell as another JSON type).
      guard let value = try? JSONReader().parse(v.frame), case .object = value,
        let foundation = try? JSONSerialization.jsonObject(with: Data(v.frame.utf8)),
        let respelled = try? JSONReader().parse(
          Array(JSONSerialization.data(withJSONObject: foundation, options: [.sortedKeys, .withoutEscapingSlashes]))),
        Self.same(respelled, Self.sorted(value))
      else { continue }
      let version = ProtocolVersion(rawValue: v.protocol_version)!
      let data = Data(v.frame.utf8)
      let thrown: (any Error)?
      do {
        if v.direction == "client_to_server" {
          _ = try Self.decoder(version).decode(ClientMessage.self, from: data)
        } else {
          _ = try Self.decoder(version).decode(ServerMessage.self, from: data)
        }
        thrown = nil
      } catch {
        thrown = error
      }
      guard case .dataCorrupted(let context)? = thrown as? DecodingError,
        let failure = context.underlyingError as? DecodingFailure
      else {
        Issue.record("\(v.protocol_version) \(v.id): \(String(describing: thrown))")
        continue
      }
      let errors = failure.findings.filter { $0.severity == .error }
      let found = Set(errors.map { Vector.Expected(pointer: $0.pointer, code: $0.code.rawValue) })
      #expect(found == Set(v.findings ?? []), "\(v.protocol_version) \(v.id): \(failure)")
      #expect(context.codingPath.map(\.stringValue) == JSONPointer.tokens(errors.first?.pointer ?? ""), "\(v.id)")
      checked += 1
    }
    #expect(checked > 1000, "\(checked) invalid vectors checked")
  }

  /// The messages of every valid history frame (`session_history`, `session_updated`), one at a time:
  /// `JSONEncoder` gives the JSON value `MessageEncoder` writes for each, and decoding gives it back.
  @Test func everyHistoryMessageOfTheVectorsRoundTrips() throws {
    var checked = 0
    func check<Element: Codable & Equatable>(_ elements: [Element], _ encoded: [[UInt8]], _ id: String) throws {
      for (element, canonical) in zip(elements, encoded) {
        let value = try JSONReader().parse(canonical)
        let stored = try Self.encoder().encode(element)
        #expect(Self.same(try JSONReader().parse(Array(stored)), value), "\(id)")
        let decoded = try JSONDecoder().decode(Element.self, from: stored)  // the type names the version
        #expect(Self.same(try JSONReader().parse(Array(Self.encoder().encode(decoded))), value), "\(id)")
        if Self.sorted(value) == value { #expect(decoded == element, "\(id)") }
        checked += 1
      }
    }
    for v in try MessageVectorTests.vectors() where v.valid {
      guard case .server(let message) = try MessageDecoder(options: Self.options(v)).decode(v.frame),
        let messages = SessionMessages(of: message)
      else { continue }
      let id = "\(v.protocol_version) \(v.id)"
      switch messages {
      case .v0_2_0(let m): try check(m, messages.encodedMessages, id)
      case .v0_3_0(let m): try check(m, messages.encodedMessages, id)
      case .v0_3_0Updated(let m): try check(m, messages.encodedMessages, id)
      case .v0_4_0(let m): try check(m, messages.encodedMessages, id)
      case .v0_5_0(let m): try check(m, messages.encodedMessages, id)
      }
    }
    #expect(checked > 20, "\(checked) history messages")
  }

  /// A stored history message is checked by its version's rules: a 0.4.0 message is not a 0.5.0 one.
  @Test func anInvalidHistoryMessageNamesThePointer() throws {
    let v040 = #"{"uuid":"u","role":"user","text":"hi","timestamp":null,"provider":"claude","session_id":"s","seq":3}"#
    #expect(throws: Never.self) { try JSONDecoder().decode(HistoryMessageV0_4_0.self, from: Data(v040.utf8)) }
    for (json, path, code) in [
      (v040, ["offset"], "missing_field"),
      (v040.replacingOccurrences(of: #""seq":3"#, with: #""offset":-1"#), ["offset"], "invalid_value"),
      (
        v040.replacingOccurrences(of: #""seq":3"#, with: #""offset":1"#).replacingOccurrences(
          of: "user", with: "robot"),
        ["role"], "invalid_value"
      ),
    ] {
      #expect {
        try JSONDecoder().decode([HistoryMessageV0_5_0].self, from: Data("[\(json)]".utf8))
      } throws: { error in
        guard case .dataCorrupted(let context) = error as? DecodingError,
          let failure = context.underlyingError as? DecodingFailure
        else { return false }
        return context.codingPath.first?.intValue == 0 && context.codingPath.dropFirst().map(\.stringValue) == path
          && failure.findings.contains { $0.code.rawValue == code && $0.pointer == "/" + path[0] }
      }
    }
  }

  @Test func decodingWithoutAVersionNamesTheKey() throws {
    let stored = try Self.encoder().encode(ClientMessage.ping(PingMessage()))
    for userInfo: [CodingUserInfoKey: any Sendable] in [[:], [ProtocolVersion.codingUserInfoKey: "0.5.0"]] {
      let decoder = JSONDecoder()
      decoder.userInfo = userInfo
      #expect {
        try decoder.decode(ClientMessage.self, from: stored)
      } throws: { error in
        guard case .valueNotFound(let type, let context) = error as? DecodingError else { return false }
        return type == ProtocolVersion.self && context.debugDescription.contains("ProtocolVersion.codingUserInfoKey")
          && context.debugDescription.contains("vcproto.protocolVersion")
      }
    }
    #expect(ProtocolVersion.codingUserInfoKey.rawValue == "vcproto.protocolVersion")
  }

  /// An app's own record holding a message: the error's coding path runs from the record through the
  /// message to the member the finding names, and the description never shows the API key.
  @Test func anInvalidMessageNamesThePointer() throws {
    struct Row: Codable, Equatable {
      var sessionId: String
      var message: ClientMessage
    }
    let key = "untethered-0123456789abcdef0123456789abcdef"
    let json = #"{"sessionId":"s","message":{"type":"connect","api_key":"\#(key)","auth_version":"2"}}"#
    #expect {
      try Self.decoder(.v0_5_0).decode(Row.self, from: Data(json.utf8))
    } throws: { error in
      guard case .dataCorrupted(let context) = error as? DecodingError,
        let failure = context.underlyingError as? DecodingFailure
      else { return false }
      return context.codingPath.map(\.stringValue) == ["message", "auth_version"]
        && failure.findings.contains { $0.pointer == "/auth_version" && $0.code == .wrongType }
        && !"\(error)".contains(key) && !String(reflecting: error).contains(key)
    }
    // A valid one round-trips, its key written as the wire carries it.
    let row = Row(sessionId: "s", message: .connect(ConnectMessage(apiKey: key)))
    let stored = try Self.encoder().encode(row)
    #expect(String(decoding: stored, as: UTF8.self).contains(key))
    #expect(try Self.decoder(.v0_5_0).decode(Row.self, from: stored) == row)
  }

  @Test func cursorsRoundTripAsSubscribeMembers() throws {
    let cases: [(SubscriptionCursor, String)] = [
      (.lastMessageId("m-1/2"), #"{"last_message_id":"m-1/2"}"#),
      (.lastSeq(42), #"{"last_seq":42}"#),
      (.offset(120, signature: "sig"), #"{"file_signature_seen":"sig","from_offset":120}"#),
      (.offset(0, signature: nil), #"{"from_offset":0}"#),
    ]
    for (cursor, json) in cases {
      let stored = try Self.encoder().encode(cursor)
      #expect(String(decoding: stored, as: UTF8.self) == json)
      // No version needed: a cursor says which kind it is.
      #expect(try JSONDecoder().decode(SubscriptionCursor.self, from: stored) == cursor)
    }
    for bad in [
      #"{}"#, #"{"last_seq":1,"from_offset":2}"#, #"{"last_seq":1,"seq":2}"#, #"{"file_signature_seen":"s"}"#,
    ] {
      #expect(throws: DecodingError.self, "\(bad)") {
        try JSONDecoder().decode(SubscriptionCursor.self, from: Data(bad.utf8))
      }
    }
    #expect(
      try JSONDecoder().decode([ProtocolVersion].self, from: Data(#"["0.2.0","0.5.0"]"#.utf8)) == [.v0_2_0, .v0_5_0])
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(ProtocolVersion.self, from: Data(#""0.6.0""#.utf8)) }
  }

  /// Numbers keep their value through Foundation (never their spelling: `Encoder` cannot write a
  /// literal's text); one no Foundation number type holds exactly is refused, not changed.
  @Test func numbersKeepTheirValue() throws {
    let cases: [(String, String)] = [
      ("0", "0"), ("-0", "0"), ("42", "42"), ("-9223372036854775808", "-9223372036854775808"),
      ("18446744073709551615", "18446744073709551615"), ("12345678901234567890123", "12345678901234567890123"),
      ("1.0", "1"), ("1E2", "100"), ("0.0036", "0.0036"), ("-2.5e-3", "-0.0025"), ("0.1", "0.1"),
      ("9007199254740993", "9007199254740993"), ("1e300", "1e+300"), ("1.5e-200", "1.5e-200"),
      ("3.14159265358979323846264338327950288", "3.14159265358979323846264338327950288"),
    ]
    for (literal, written) in cases {
      let value = JSONValue.number(JSONNumber(uncheckedLiteral: literal))
      let stored = try Self.encoder().encode(["n": value] as JSONValue)
      #expect(String(decoding: stored, as: UTF8.self) == #"{"n":\#(written)}"#, "\(literal)")
      let back = try JSONDecoder().decode(JSONValue.self, from: stored)
      guard case .number(let n)? = back["n"] else {
        Issue.record("\(literal): \(back)")
        continue
      }
      #expect(JSONNumber.sameValue(n.literal, literal), "\(literal) came back as \(n.literal)")
    }
    for literal in ["1e400", "1234567890123456789012345678901234567890.5"] {
      #expect(throws: EncodingError.self, "\(literal)") {
        try Self.encoder().encode(JSONValue.number(JSONNumber(uncheckedLiteral: literal)))
      }
    }
    // A message's undeclared members keep their numbers' values too.
    var ping = PingMessage()
    ping.additionalMembers["big"] = .number(JSONNumber(uncheckedLiteral: "12345678901234567890123"))
    ping.additionalMembers["cost"] = .number(JSONNumber(uncheckedLiteral: "0.0036"))
    let stored = try Self.encoder().encode(ClientMessage.ping(ping))
    #expect(String(decoding: stored, as: UTF8.self) == #"{"big":12345678901234567890123,"cost":0.0036,"type":"ping"}"#)
    let back = try Self.decoder(.v0_5_0).decode(ClientMessage.self, from: stored)
    #expect(back == .ping(ping), "\(String(reflecting: back))")
  }

  @Test func canonicallyEquivalentMemberNamesAreRefused() throws {
    let object = JSONObject([.init(key: "\u{E9}", value: 1), .init(key: "e\u{301}", value: 2)])
    #expect(throws: EncodingError.self) { try Self.encoder().encode(JSONValue.object(object)) }
  }

  @Test func deepNestingIsRefused() throws {
    let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(JSONValue.self, from: Data(deep.utf8)) }
    let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    #expect(throws: Never.self) { try JSONDecoder().decode(JSONValue.self, from: Data(fine.utf8)) }
  }
}

extension AnyMessage {
  fileprivate var clientMessage: ClientMessage? {
    if case .client(let m) = self { return m }
    return nil
  }

  fileprivate var serverMessage: ServerMessage? {
    if case .server(let m) = self { return m }
    return nil
  }
}
