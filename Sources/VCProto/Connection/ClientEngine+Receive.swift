/// The validation boundary: every WebSocket message from the server comes in here as bytes and
/// leaves as a typed ``ServerMessage`` or a ``ProtocolViolation``, never as an unchecked frame.
extension ClientEngine {
  /// The decoder of `hello`, the first frame, before anything is negotiated. Its members are the
  /// same in every version; the oldest version's rules are the ones that do not depend on the
  /// version still to be negotiated (`hello.version` is the server's ceiling: any version is at
  /// least 0.2.0).
  static let handshakeDecoder = decoder(for: .v0_2_0)

  /// The decoder of a frame before `ready` (``handshakePhaseTypes``): `hello` with
  /// ``handshakeDecoder``; `connected` with the version it names, when the client could accept it;
  /// anything else with the version the handshake is heading for (the lower of the server's ceiling
  /// and the client's maximum), which is the oldest before `hello`.
  func handshakeDecoder(for type: String, _ value: JSONValue) -> MessageDecoder {
    if type == "connected", let named = value.objectValue?["negotiated_protocol_version"]?.stringValue,
      let version = ProtocolVersion(rawValue: named), version >= configuration.minimumVersion,
      version <= configuration.maximumVersion
    {
      return Self.decoder(for: version)
    }
    guard type != "hello", let heading = handshakeVersion else { return Self.handshakeDecoder }
    return Self.decoder(for: heading)
  }

  /// The types read before negotiation (``handshakeDecoder``); anything else before `connected` is
  /// ignored, as before authentication nothing is acted on.
  static let handshakePhaseTypes: Set<String> = ["hello", "connected", "auth_error", "error", "pong"]

  /// The decoder of a connection on `version`: server-to-client frames, the version's rules.
  static func decoder(for version: ProtocolVersion) -> MessageDecoder {
    MessageDecoder(options: ValidationOptions(direction: .serverToClient, version: version))
  }

  /// One received WebSocket message: opened (envelope, then sealed frame), decoded once, and acted on.
  mutating func receive(_ message: WebSocketMessage, now: Int64, _ out: inout [ClientAction]) {
    switch state {
    case .awaitingHello, .awaitingConnected, .ready: break
    default: return  // in flight after the client closed: ignored
    }
    lastFrameAt = now
    var bytes: [UInt8]
    /// The frame's tree, only when the text had to be parsed to tell an envelope from a frame.
    var tree: JSONValue?
    switch message {
    case .binary(let payload):
      // A binary message is only ever a compression envelope (STANDARDS.md#compression).
      guard capabilityFlags.contains(.compressionBinary) else {
        reject(
          Finding(
            .error, .extensionNotNegotiated, pointer: "",
            message: "a binary message (a binary envelope) but compression_binary was not negotiated"),
          type: nil, now: now, &out)
        return
      }
      do throws(EnvelopeError) {
        bytes = try EnvelopeCodec().open(binary: payload)
      } catch {
        reject(Finding(.error, FindingCode(error), pointer: "", message: error.description), type: nil, now: now, &out)
        return
      }
    case .text(let payload):
      bytes = payload
      if capabilityFlags.contains(.compressionText) {
        // Parsed once here: a text envelope is opened, anything else is the frame (or its sealed form).
        guard let value = parse(bytes, now: now, &out) else { return }
        if EnvelopeCodec.isTextEnvelope(value), case .object(let envelope) = value {
          do throws(EnvelopeError) {
            bytes = try EnvelopeCodec().open(textEnvelope: envelope)
          } catch {
            reject(
              Finding(.error, FindingCode(error), pointer: "", message: error.description), type: "compressed",
              now: now, &out)
            return
          }
        } else {
          tree = value
        }
      }
    }
    if channel != nil {
      // Authenticated frames (STANDARDS.md#authenticated-frames): every frame after the verified `connected` is
      // opened first (inside any envelope); a plain, malformed, altered, replayed or reordered one
      // closes the connection and reaches nothing.
      do throws(AuthenticatedFrameError) {
        if case .object(let object)? = tree {
          bytes = Array(try channel!.open(object: object).utf8)
        } else if tree != nil {
          channel = nil  // not an object: not an authenticated frame, and the channel is done
          throw .notAuthenticated
        } else {
          bytes = try channel!.open(bytes)
        }
      } catch {
        connectionLost(.authenticatedFrame(error), now: now, close: true, &out)
        return
      }
      tree = nil
    }
    guard negotiatedDecoder != nil else {
      handshakeFrame(tree, bytes: bytes, now: now, &out)
      return
    }
    // Ready: the negotiated version's decoder (used in place, not copied), on its direct path from
    // the bytes (the tree, when the envelope check already made one); the validator runs only on a
    // frame that fails, to say why.
    let decoded: AnyMessage
    do throws(DecodingFailure) {
      if let tree {
        decoded = try negotiatedDecoder!.decode(tree: tree)
      } else {
        decoded = try negotiatedDecoder!.decode(bytes)
      }
    } catch {
      violation(error.findings, type: error.messageType, now: now, &out)
      return
    }
    guard let typed = serverMessage(consume decoded, now: now, &out) else { return }
    receive(typed, now: now, &out)
  }

  /// A frame before `ready`: parsed, so that its `type` (and a `connected`'s version) chooses the
  /// decoder (``handshakeDecoder(for:_:)``), then typed from the tree and acted on.
  mutating func handshakeFrame(_ parsed: JSONValue?, bytes: [UInt8], now: Int64, _ out: inout [ClientAction]) {
    guard let value = parsed ?? parse(bytes, now: now, &out) else { return }
    let decoder: MessageDecoder
    let type = value.objectValue?["type"]?.stringValue
    if let type, Self.handshakePhaseTypes.contains(type) {
      decoder = handshakeDecoder(for: type, value)
    } else if state == .awaitingConnected, let implicit = implicitAuthVersion, configuration.allowAuthV1 {
      decoder = Self.decoder(for: implicit)  // a 0.2.0/0.3.0 server's first frame after connect
    } else if value.objectValue == nil || type == nil {
      // Not a frame at all: the handshake is broken.
      violation(decoder: Self.handshakeDecoder, value, now: now, &out)
      return
    } else {
      return  // before authentication nothing else is acted on
    }
    let decoded: AnyMessage
    do throws(DecodingFailure) {
      decoded = try decoder.decode(tree: value)
    } catch {
      violation(error.findings, type: error.messageType, now: now, &out)
      return
    }
    guard let typed = serverMessage(consume decoded, now: now, &out) else { return }
    receive(typed, now: now, &out)
  }

  /// The frame's tree, or `nil` after reporting it (not JSON: a violation).
  mutating func parse(_ bytes: [UInt8], now: Int64, _ out: inout [ClientAction]) -> JSONValue? {
    let decoder = negotiatedDecoder ?? Self.handshakeDecoder
    do {
      return try JSONReader(limits: decoder.validator.options.limits).parse(bytes)
    } catch {
      let report = decoder.validator.report(readError: error, frame: bytes)
      violation(report.findings, type: nil, now: now, &out)
      return nil
    }
  }

  /// The server message a decode gave, or `nil` after reporting the frame (a client-to-server
  /// message): a frame with an error is never acted on.
  mutating func serverMessage(
    _ decoded: consuming AnyMessage, now: Int64, _ out: inout [ClientAction]
  ) -> ServerMessage? {
    switch consume decoded {
    case .server(let message): return message
    case .unknown(let object): return .unknown(object)
    case .client(let message):
      let finding = Finding(
        .error, .wrongDirection, pointer: "/type", messageType: message.type,
        message: "a client-to-server message from the server")
      violation([finding], type: message.type, now: now, &out)
      return nil
    }
  }

  /// Reports a frame that is not a frame (no object, no `type`) with `decoder`'s findings.
  mutating func violation(decoder: MessageDecoder, _ value: JSONValue, now: Int64, _ out: inout [ClientAction]) {
    let report = decoder.validator.validate(value)
    violation(report.findings, type: report.messageType, now: now, &out)
  }

  /// Reports one finding about the message (an envelope or capability error) as a violation.
  mutating func reject(_ finding: Finding, type: String?, now: Int64, _ out: inout [ClientAction]) {
    violation([finding], type: type, now: now, &out)
  }

  /// Delivers a ``ProtocolViolation`` and applies the policy: during the handshake (before `ready`),
  /// or for a handshake message (`hello`, `connected`, `auth_error`) at any time, the connection
  /// closes (``CloseReason/protocolViolation(_:)``); otherwise the frame is dropped and the
  /// connection goes on.
  mutating func violation(_ findings: [Finding], type: String?, now: Int64, _ out: inout [ClientAction]) {
    let shown = type.map(Finding.shownType)
    let closes = state != .ready || (type.map { Validator.handshakeTypes.contains($0) } ?? false)
    guard closes else {
      out.append(.deliver(.violation(ProtocolViolation(messageType: shown, findings: findings, disposition: .dropped))))
      return
    }
    let first = findings.first { $0.severity == .error } ?? findings.first
    let detail =
      "\(shown ?? "(no type)"): "
      + (first.map { "\($0.code.rawValue) at \(Redaction.truncated($0.pointer))" } ?? "invalid")
    let reason = CloseReason.protocolViolation(detail)
    out.append(
      .deliver(.violation(ProtocolViolation(messageType: shown, findings: findings, disposition: .closed(reason)))))
    connectionLost(reason, now: now, close: true, &out)
  }
}
