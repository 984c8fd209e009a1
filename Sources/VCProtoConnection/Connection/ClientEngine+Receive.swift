import VCProtoCore
import VCProtoJSON

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
  ///
  /// A text envelope (`compression_text`) is told from a frame by the decode itself: its type,
  /// `compressed`, is no message type, so the direct decode reads it as an unknown object (one
  /// parse, as any unknown type), which is then opened and its frame decoded. Every other text
  /// message, one that mentions `"compressed"` in a string too, stays on the direct path.
  mutating func receive(_ message: WebSocketMessage, now: Int64, _ out: inout ClientActions) {
    switch state {
    case .awaitingHello, .awaitingConnected, .ready: break
    default: return  // in flight after the client closed: ignored
    }
    lastFrameAt = now
    // The common case (a text frame, no authenticated frames) in line, its bytes read where they
    // are (bound to a local that the opened frame could also be, they were retained and released
    // on every frame); the rest out of line.
    if case .text(let payload) = message, channel == nil {
      receive(frame: payload, of: message, now: now, &out)
    } else {
      receiveOpened(message, now: now, &out)
    }
  }

  /// A message that is not a plain text frame (a binary envelope, or a frame while authenticated
  /// frames are in force): opened, then decoded and acted on (out of line: rare or slow anyway).
  @inline(never)
  mutating func receiveOpened(_ message: WebSocketMessage, now: Int64, _ out: inout ClientActions) {
    guard let opened = openFrame(message, now: now, &out) else { return }
    receive(frame: opened, of: message, now: now, &out)
  }

  /// The frame `bytes` that came in `message` (as it came, or opened): decoded once and acted on.
  @inline(__always)
  mutating func receive(frame bytes: [UInt8], of message: WebSocketMessage, now: Int64, _ out: inout ClientActions) {
    guard hasReadyDecoder else {
      handshakeFrame(bytes, now: now, &out)
      return
    }
    // Ready: the negotiated version's decoder (used in place, not copied), on its direct path from
    // the bytes; the validator runs only on a frame that fails, to say why.
    guard let decoded = decodeReady(bytes, now: now, &out) else { return }
    switch consume decoded {
    case .server(let typed):
      // Most frames of a session: a history straight to its step (``receive(_:now:_:)`` of the
      // typed message and ``onReady(_:now:_:)`` do nothing else with it once ready), so that the
      // code a history frame runs besides the decoder's stays short (ClientEngine+History.swift).
      // (The message is moved, never copied: binding the history's payload here copied it.)
      if state == .ready, case .sessionHistory = typed {
        onHistory(typed, now: now, &out)
      } else {
        receive(typed, now: now, &out)
      }
    case .unknown(let object): unknownFrame(object, message, now: now, &out)
    case .client(let message): wrongDirection(message.type, now: now, &out)
    }
  }

  /// A frame of no type the version knows: with `compression_text` negotiated (and no authenticated
  /// frames), a text envelope is opened and its frame decoded and acted on; anything else is delivered
  /// as ``ServerMessage/unknown(_:)``. Out of line: no frame of a correct uncompressed session.
  @inline(never)
  mutating func unknownFrame(
    _ object: JSONObject, _ message: WebSocketMessage, now: Int64, _ out: inout ClientActions
  ) {
    guard channel == nil, capabilityFlags.contains(.compressionText), case .text = message,
      EnvelopeForm.isTextEnvelope(object)
    else {
      receive(.unknown(object), now: now, &out)
      return
    }
    guard let inner = openTextEnvelope(object, now: now, &out), let frame = decodeReady(inner, now: now, &out),
      let typed = serverMessage(frame, now: now, &out)
    else { return }
    receive(typed, now: now, &out)
  }

  /// The frame decoded with the negotiated version's decoder, or `nil` after reporting it.
  mutating func decodeReady(_ bytes: [UInt8], now: Int64, _ out: inout ClientActions) -> AnyMessage? {
    do throws(DecodingFailure) {
      return try readyDecoder.decode(bytes)
    } catch {
      violation(error.findings, type: error.messageType, now: now, &out)
      return nil
    }
  }

  /// The frame inside `message` before it is decoded: a binary message is a binary envelope, opened
  /// only with `compression_binary` (STANDARDS.md#compression); after the verified `connected`, with
  /// authenticated frames in force, the sealed frame is then opened (STANDARDS.md#authenticated-frames:
  /// a plain, malformed, altered, replayed or reordered one closes the connection and reaches
  /// nothing). A text message is otherwise the frame as it came (a text envelope is recognised by
  /// its decode, ``receive(_:now:_:)``), except that with both authenticated frames and
  /// `compression_text` it is parsed once here to tell an envelope from a sealed frame. `nil` when
  /// something does not open (reported).
  @inline(never)
  mutating func openFrame(_ message: WebSocketMessage, now: Int64, _ out: inout ClientActions) -> [UInt8]? {
    var bytes: [UInt8]
    var sealed: JSONValue?
    switch message {
    case .binary(let payload):
      // A binary message is only ever a compression envelope (STANDARDS.md#compression).
      guard capabilityFlags.contains(.compressionBinary), let envelopes = configuration.envelopes else {
        reject(
          Finding(
            .error, .extensionNotNegotiated, pointer: "",
            message: "a binary message (a binary envelope) but compression_binary was not negotiated"),
          type: nil, now: now, &out)
        return nil
      }
      do throws(EnvelopeError) {
        bytes = try envelopes.open(binary: payload)
      } catch {
        reject(Finding(.error, FindingCode(error), pointer: "", message: error.description), type: nil, now: now, &out)
        return nil
      }
    case .text(let payload):
      bytes = payload
      if channel != nil, capabilityFlags.contains(.compressionText) {
        guard let value = parse(bytes, now: now, &out) else { return nil }
        if case .object(let envelope) = value, EnvelopeForm.isTextEnvelope(envelope) {
          guard let inner = openTextEnvelope(envelope, now: now, &out) else { return nil }
          bytes = inner
        } else {
          sealed = value
        }
      }
    }
    guard channel != nil else { return bytes }
    do throws(AuthenticatedFrameError) {
      switch sealed {
      case .object(let object)?: return Array(try channel!.open(object: object).utf8)
      case .some:
        channel = nil  // not an object: not an authenticated frame, and the channel is done
        throw .notAuthenticated
      case nil: return try channel!.open(bytes)
      }
    } catch {
      connectionLost(.authenticatedFrame(error), now: now, close: true, &out)
      return nil
    }
  }

  /// The frame inside a text envelope, or `nil` after reporting it.
  @inline(never)
  mutating func openTextEnvelope(_ envelope: JSONObject, now: Int64, _ out: inout ClientActions) -> [UInt8]? {
    do throws(EnvelopeError) {
      // Only with compression_text negotiated, which the engine asks for only with envelopes to open it.
      guard let envelopes = configuration.envelopes else { throw .malformed }
      return try envelopes.open(textEnvelope: envelope)
    } catch {
      reject(
        Finding(.error, FindingCode(error), pointer: "", message: error.description), type: "compressed", now: now,
        &out)
      return nil
    }
  }

  /// A frame before `ready`: parsed, so that its `type` (and a `connected`'s version) chooses the
  /// decoder (``handshakeDecoder(for:_:)``), then typed from the tree and acted on.
  @inline(never)
  mutating func handshakeFrame(_ bytes: [UInt8], now: Int64, _ out: inout ClientActions) {
    guard let value = parse(bytes, now: now, &out) else { return }
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
  @inline(never)
  mutating func parse(_ bytes: [UInt8], now: Int64, _ out: inout ClientActions) -> JSONValue? {
    let decoder = negotiatedDecoder ?? Self.handshakeDecoder
    do {
      return try JSONReader(limits: decoder.validator.options.limits, knownKeys: .protocolNames).parse(bytes)
    } catch {
      let report = decoder.validator.report(readError: error, frame: bytes)
      violation(report.findings, type: nil, now: now, &out)
      return nil
    }
  }

  /// The server message a decode gave, or `nil` after reporting the frame (a client-to-server
  /// message): a frame with an error is never acted on.
  mutating func serverMessage(
    _ decoded: consuming AnyMessage, now: Int64, _ out: inout ClientActions
  ) -> ServerMessage? {
    switch consume decoded {
    case .server(let message): return message
    case .unknown(let object): return .unknown(object)
    case .client(let message):
      wrongDirection(message.type, now: now, &out)
      return nil
    }
  }

  /// Reports a client-to-server message from the server (out of line: never on a correct server).
  @inline(never)
  mutating func wrongDirection(_ type: String, now: Int64, _ out: inout ClientActions) {
    let finding = Finding(
      .error, .wrongDirection, pointer: "/type", messageType: type,
      message: "a client-to-server message from the server")
    violation([finding], type: type, now: now, &out)
  }

  /// Reports a frame that is not a frame (no object, no `type`) with `decoder`'s findings.
  @inline(never)
  mutating func violation(decoder: MessageDecoder, _ value: JSONValue, now: Int64, _ out: inout ClientActions) {
    let report = decoder.validator.validate(value)
    violation(report.findings, type: report.messageType, now: now, &out)
  }

  /// Reports one finding about the message (an envelope or capability error) as a violation.
  @inline(never)
  mutating func reject(_ finding: Finding, type: String?, now: Int64, _ out: inout ClientActions) {
    violation([finding], type: type, now: now, &out)
  }

  /// Delivers a ``ProtocolViolation`` and applies the policy: during the handshake (before `ready`),
  /// or for a handshake message (`hello`, `connected`, `auth_error`) at any time, the connection
  /// closes (``CloseReason/protocolViolation(_:)``); otherwise the frame is dropped and the
  /// connection goes on.
  @inline(never)
  mutating func violation(_ findings: [Finding], type: String?, now: Int64, _ out: inout ClientActions) {
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
