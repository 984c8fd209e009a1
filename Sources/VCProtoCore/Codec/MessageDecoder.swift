import VCProtoJSON

/// Decodes frames into the typed model.
///
/// Three paths, one verdict, one decoder. Each generated struct has one decoder, written against a
/// small reader protocol (`ModelReader`) and checking every catalog rule as it reads. The direct path
/// runs it over the frame's bytes (the bytes reader); anything that reader does not recognise outright
/// (the `type` not first, an escaped member name, any rule broken) sends the frame to the tree path:
/// one parse into ``JSONValue``, the same decoder over the tree (the tree reader), and the validator
/// only when that fails, to explain why.
///
/// A frame decodes exactly when the validator finds no error in it; otherwise the thrown
/// ``DecodingFailure`` carries the validator's findings. Warnings (an unknown type, undeclared
/// members) do not stop decoding: unknown types become `.unknown`, undeclared members are kept in
/// `additionalMembers` and re-encoded.
public struct MessageDecoder: Sendable {
  /// The validator that gates decoding (its options: version, strictness, limits).
  public var validator: Validator
  /// The catalog's member names (``KnownKeys/protocolNames``), read once here rather than through
  /// the lazily initialised global for every frame.
  let knownKeys: KnownKeys

  /// Creates a decoder checking against `options`, logging to `logger`.
  public init(options: ValidationOptions, logger: ProtocolLogger = .silent) {
    validator = Validator(options: options, logger: logger)
    knownKeys = .protocolNames
  }

  /// How this decoder reaches its verdict (``DecodeStrategy``), from its options and its logger.
  var strategy: DecodeStrategy { .choose(options: validator.options, logger: validator.logger) }

  /// Decodes a frame of either direction (the direction comes from the options or the type).
  ///
  /// Fast path: one parse, then the generated model builds the message while checking every rule the
  /// validator checks. Only when that fails (or when strict mode or a logger that records warnings
  /// needs them) does the validator run, to report the findings.
  public func decode(_ bytes: [UInt8]) throws(DecodingFailure) -> AnyMessage {
    if strategy != .validated, let message = directBuild(bytes) { return message }
    return try decodeOffTheDirectPath(bytes)
  }

  /// ``decode(_:)`` once the direct path does not apply: the validator for every frame (strategy
  /// `.validated`), or the tree path and, when that fails too, the validator's findings. Out of line,
  /// so that the direct path's caller stays small (it does not copy the decoder for these paths).
  @inline(never)
  package func decodeOffTheDirectPath(_ bytes: [UInt8]) throws(DecodingFailure) -> AnyMessage {
    if strategy == .validated { return try build(validator.validate(bytes)) }
    let value: JSONValue
    do {
      value = try JSONReader(limits: validator.options.limits, knownKeys: .protocolNames).parse(bytes)
    } catch {
      return try build(validator.report(readError: error, frame: bytes))
    }
    if let message = fastBuild(value) { return message }
    return try build(validator.validate(value))
  }

  /// Reads the typed message straight from the bytes; `nil` when the direct path does not apply (the
  /// frame may still be valid: the tree path decides). Used only when its verdict cannot differ from the
  /// validator's: a type of the negotiated version (the generated structs check exactly that
  /// version's rules), and no negotiated-capability check.
  ///
  /// With `clean`, a frame that keeps an undeclared member (which the validator would warn about) is
  /// left to the general path too.
  func directBuild(_ bytes: [UInt8], clean: Bool = false) -> AnyMessage? {
    directRead(bytes, clean: clean, stats: nil, with: BytesReader.self)
  }

  /// ``directBuild(_:clean:)`` that also says what the parse cost (for the tests of linear work).
  package func directBuild(_ bytes: [UInt8], clean: Bool = false, stats: inout JSONParseStats) -> AnyMessage? {
    withUnsafeMutablePointer(to: &stats) { directRead(bytes, clean: clean, stats: $0, with: BytesReader.self) }
  }

  /// The direct path over the reader `R` (``DirectPath/read(_:clean:stats:with:)``), `nil` when this
  /// decoder has none.
  @inline(__always)
  func directRead<R: FrameBytesReader>(
    _ bytes: [UInt8], clean: Bool, stats: UnsafeMutablePointer<JSONParseStats>?, with _: R.Type
  ) -> AnyMessage? {
    DirectPath(self)?.read(bytes, clean: clean, stats: stats, with: R.self)
  }

  /// Decodes a frame already parsed into `value` (an engine that needs the tree too): the generated
  /// decoder over the tree reader, and the validator only when that fails, to say why. Same verdict as
  /// ``decode(_:)`` on the frame's bytes.
  package func decode(tree value: JSONValue) throws(DecodingFailure) -> AnyMessage {
    if strategy != .validated, let message = fastBuild(value) { return message }
    return try build(validator.validate(value))
  }

  /// Builds the typed message from the tree; `nil` when the frame has any error (the caller then asks
  /// the validator why).
  private func fastBuild(_ value: JSONValue) -> AnyMessage? {
    guard case .object(let object) = value, case .string(let type)? = object["type"],
      case let catalog = validator.catalog, let version = catalog.knownVersion
    else { return nil }
    guard let spec = catalog.message(type) else {
      // Unknown to every version: only a warning, the object is kept whole.
      return ProtocolCatalog.versions(ofType: type).isEmpty ? .unknown(object) : nil
    }
    guard spec.isModelled else { return .unknown(object) }
    // Handshake messages go through the validator here, which applies the connection's rules to their
    // one struct (the direct path checks the same rules as it reads).
    guard !Validator.handshakeTypes.contains(spec.type) else { return nil }
    if let direction = validator.options.direction, direction != spec.direction { return nil }
    if let negotiated = validator.options.negotiatedCapabilities,
      !spec.unnegotiatedCapabilities(in: object, negotiated: negotiated).isEmpty
    {
      return nil
    }
    return try? Self.read(object, type: type, direction: spec.direction, version: version)
  }

  /// The generated decoder of `type` over the tree reader: the typed message of a frame object, or
  /// ``DirectPathError`` when it breaks a rule; a type the model does not have stays `.unknown`.
  static func read(_ object: JSONObject, type: String, direction: MessageDirection, version: ProtocolVersion)
    throws(DirectPathError) -> AnyMessage
  {
    var reader = JSONTreeReader(.object(object))
    switch direction {
    case .clientToServer:
      let message = try ClientMessage.read(type: type, version: version, &reader, typeConsumed: false)
      return .client(message ?? .unknown(object))
    case .serverToClient:
      let message = try ServerMessage.read(type: type, version: version, &reader, typeConsumed: false)
      return .server(message ?? .unknown(object))
    }
  }

  /// The message, when the frame decodes on the direct path and draws no finding at all, not even a
  /// warning (no undeclared member, no unknown type); `nil` when only the validator can say what the
  /// frame is (it may still be valid). No tree and no validator: a checker that only needs the verdict
  /// of clean frames (`vcproto validate`) asks this first and validates only the rest.
  public func decodeIfClean(_ bytes: [UInt8]) -> AnyMessage? {
    directBuild(bytes, clean: true)
  }

  /// Decodes a frame given as text.
  public func decode(_ text: String) throws(DecodingFailure) -> AnyMessage {
    try decode(Array(text.utf8))
  }

  /// Decodes a frame the client sent. A server-to-client type is a `wrong_direction` error.
  public func decodeClientMessage(_ bytes: [UInt8]) throws(DecodingFailure) -> ClientMessage {
    var d = self
    d.validator.options.direction = .clientToServer
    switch try d.decode(bytes) {
    case .client(let m): return m
    case .unknown(let o): return .unknown(o)
    case .server(let m): throw DecodingFailure(findings: [], messageType: m.type)
    }
  }

  /// Decodes a frame the server sent. A client-to-server type is a `wrong_direction` error.
  public func decodeServerMessage(_ bytes: [UInt8]) throws(DecodingFailure) -> ServerMessage {
    var d = self
    d.validator.options.direction = .serverToClient
    switch try d.decode(bytes) {
    case .server(let m): return m
    case .unknown(let o): return .unknown(o)
    case .client(let m): throw DecodingFailure(findings: [], messageType: m.type)
    }
  }

  /// Builds the typed message from a validation report (used by the CLI to avoid a second pass).
  package func build(_ report: ValidationReport) throws(DecodingFailure) -> AnyMessage {
    guard report.isValid, case .object(let object)? = report.value, let type = report.messageType else {
      throw DecodingFailure(findings: report.findings, messageType: report.messageType)
    }
    guard case let catalog = validator.catalog, let version = catalog.knownVersion,
      let spec = catalog.message(type), spec.isModelled
    else {
      return .unknown(object)
    }
    do {
      return try Self.read(object, type: type, direction: report.direction ?? spec.direction, version: version)
    } catch {
      // The validator accepted the frame, so this means the catalog and the generated model disagree.
      let finding = Finding(
        .error, .wrongType, pointer: "", messageType: type, message: "typed model rejected an accepted frame")
      throw DecodingFailure(findings: report.findings + [finding], messageType: type)
    }
  }
}
