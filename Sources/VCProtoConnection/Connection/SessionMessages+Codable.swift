import VCProtoCore
import VCProtoJSON

/// The messages of a session's history through `Codable`, one at a time: the element types of
/// ``SessionMessages`` (``HistoryMessage``, ``HistoryMessageV0_4_0``, ``HistoryMessageV0_5_0``,
/// ``ClaudeRecord``, ``HistoryMessageOrClaudeRecord``), what an app stores as the rows of a session.
///
/// Each encodes as the JSON value ``MessageEncoder`` writes for it inside a frame, and decodes by the
/// validator's rules for its shape in the versions its type is for (the type names the version, so
/// no `userInfo` is needed): the checks a frame's `messages` element gets, with the same
/// ``JSONLimits``. A value they refuse throws `DecodingError.dataCorrupted` whose coding path leads to
/// the first error finding's member and whose underlying error is the ``DecodingFailure``.
enum SessionMessageCoding {
  /// Writes `value` as the JSON value its frame would carry.
  static func encode<Value: JSONFieldValue>(_ value: Value, to encoder: any Encoder) throws {
    var writer = JSONWriter()
    value.encodeField(to: &writer)
    try MessageCoding.encode(frame: writer.bytes, to: encoder)
  }

  /// Reads a value of `type`, checked as `type` (a catalog type of `version`) and built by its generated
  /// decoder over the tree reader.
  static func decode<Value: JSONFieldValue & ModelReadable>(
    _: Value.Type, as type: FieldType, in version: ProtocolVersion, from decoder: any Decoder
  ) throws -> Value {
    var writer = JSONWriter()
    writer.write(try JSONValue(from: decoder))
    let value: JSONValue
    do {
      value = try JSONReader(limits: .default, knownKeys: .protocolNames).parse(writer.bytes)
    } catch {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: "not a valid \(Value.self): \(error)",
          underlyingError: error))
    }
    var state = ValidationState(strict: false, maxFindings: ValidationOptions(version: version).maxFindings)
    state.protocolVersion = version.rawValue
    ValueRules.check(value, type, secret: false, in: ProtocolCatalog.catalog(version), into: &state)
    if !state.hasErrors, let built = Value.read(tree: value) { return built }
    var findings = state.finishedFindings()
    if !state.hasErrors {
      // The validator accepted what the model refused: the catalog and the model disagree.
      findings.append(Finding(.error, .wrongType, pointer: "", message: "typed model rejected an accepted value"))
    }
    throw MessageCoding.failure(
      DecodingFailure(findings: findings, messageType: nil), decoding: Value.self, version: version, decoder)
  }
}

extension HistoryMessage: Codable {
  /// Writes the message as a 0.3.0 frame carries it.
  public func encode(to encoder: any Encoder) throws { try SessionMessageCoding.encode(self, to: encoder) }

  /// Reads a message by 0.3.0's rules for `HistoryMessage`.
  public init(from decoder: any Decoder) throws {
    self = try SessionMessageCoding.decode(Self.self, as: .shape("HistoryMessage"), in: .v0_3_0, from: decoder)
  }
}

extension HistoryMessageV0_4_0: Codable {
  /// Writes the message as a 0.4.0 frame carries it.
  public func encode(to encoder: any Encoder) throws { try SessionMessageCoding.encode(self, to: encoder) }

  /// Reads a message by 0.4.0's rules for `HistoryMessage`.
  public init(from decoder: any Decoder) throws {
    self = try SessionMessageCoding.decode(Self.self, as: .shape("HistoryMessage"), in: .v0_4_0, from: decoder)
  }
}

extension HistoryMessageV0_5_0: Codable {
  /// Writes the message as a 0.5.0 frame carries it.
  public func encode(to encoder: any Encoder) throws { try SessionMessageCoding.encode(self, to: encoder) }

  /// Reads a message by 0.5.0's rules for `HistoryMessage`.
  public init(from decoder: any Decoder) throws {
    self = try SessionMessageCoding.decode(Self.self, as: .shape("HistoryMessage"), in: .v0_5_0, from: decoder)
  }
}

extension ClaudeRecord: Codable {
  /// Writes the record as received (``raw``), as a frame carries it.
  public func encode(to encoder: any Encoder) throws { try SessionMessageCoding.encode(self, to: encoder) }

  /// Reads a record by the rules for `ClaudeRecord` (the same in every version).
  public init(from decoder: any Decoder) throws {
    self = try SessionMessageCoding.decode(Self.self, as: .shape("ClaudeRecord"), in: .v0_2_0, from: decoder)
  }
}

extension HistoryMessageOrClaudeRecord: Codable {
  /// Writes the chosen alternative as a 0.3.0 `session_updated` carries it.
  public func encode(to encoder: any Encoder) throws { try SessionMessageCoding.encode(self, to: encoder) }

  /// Reads a message by 0.3.0's rules, the alternative chosen as the validator chooses it.
  public init(from decoder: any Decoder) throws {
    self = try SessionMessageCoding.decode(Self.self, as: .oneOf(Self.alternatives), in: .v0_3_0, from: decoder)
  }
}
