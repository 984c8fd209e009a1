/// Decodes frames into the typed model: one parse, one validation pass, then the typed value.
///
/// A frame decodes exactly when the validator finds no error in it; otherwise the thrown
/// ``DecodingFailure`` carries the validator's findings. Warnings (an unknown type, undeclared
/// members) do not stop decoding: unknown types become `.unknown`, undeclared members are kept in
/// `additionalMembers` and re-encoded.
public struct MessageDecoder: Sendable {
  /// The validator that gates decoding (its options: version, strictness, limits).
  public var validator: Validator

  /// Creates a decoder checking against `options`, logging to `logger`.
  public init(options: ValidationOptions = ValidationOptions(), logger: ProtocolLogger = .silent) {
    validator = Validator(options: options, logger: logger)
  }

  /// Decodes a frame of either direction (the direction comes from the options or the type).
  public func decode(_ bytes: [UInt8]) throws(DecodingFailure) -> AnyMessage {
    let report = validator.validate(bytes)
    return try build(report)
  }

  /// Decodes a frame given as text.
  public func decode(_ text: String) throws(DecodingFailure) -> AnyMessage {
    try decode(Array(text.utf8))
  }

  /// Decodes a frame the client sent. A server-to-client type is a `wrong_direction` error.
  public func decodeClientMessage(_ bytes: [UInt8]) throws(DecodingFailure) -> ClientMessage {
    var v = validator
    v.options.direction = .clientToServer
    switch try build(v.validate(bytes)) {
    case .client(let m): return m
    case .unknown(let o): return .unknown(o)
    case .server(let m): throw DecodingFailure(findings: [], messageType: m.type)
    }
  }

  /// Decodes a frame the server sent. A client-to-server type is a `wrong_direction` error.
  public func decodeServerMessage(_ bytes: [UInt8]) throws(DecodingFailure) -> ServerMessage {
    var v = validator
    v.options.direction = .serverToClient
    switch try build(v.validate(bytes)) {
    case .server(let m): return m
    case .unknown(let o): return .unknown(o)
    case .client(let m): throw DecodingFailure(findings: [], messageType: m.type)
    }
  }

  /// Builds the typed message from a validation report (used by the CLI to avoid a second pass).
  public func build(_ report: ValidationReport) throws(DecodingFailure) -> AnyMessage {
    guard report.isValid, case .object(let object)? = report.value, let type = report.messageType else {
      throw DecodingFailure(findings: report.findings, messageType: report.messageType)
    }
    guard let spec = validator.catalog?.message(type), spec.isModelled else {
      return .unknown(object)
    }
    do {
      switch report.direction ?? spec.direction {
      case .clientToServer: return .client(try ClientMessage(type: type, object: object))
      case .serverToClient: return .server(try ServerMessage(type: type, object: object))
      }
    } catch {
      // The validator accepted the frame, so this means the catalog and the generated model disagree.
      let finding = Finding(
        .error, .wrongType, pointer: error.pointer, messageType: type,
        message: "typed model rejected an accepted frame: \(error.reason)")
      throw DecodingFailure(findings: report.findings + [finding], messageType: type)
    }
  }
}
