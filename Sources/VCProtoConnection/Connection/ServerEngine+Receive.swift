import VCProtoCore
import VCProtoJSON

extension ServerEngine {
  /// Finding codes of a frame the engine cannot read as a JSON object at all (not JSON, not UTF-8, a
  /// duplicate key, over a parsing limit, not an object): answered as the real server answers a parse
  /// failure, with `error`, the socket staying open, before or after authentication.
  static let unreadableCodes: Set<FindingCode> = [
    .invalidJSON, .invalidUTF8, .duplicateKey, .frameTooLarge, .nestingTooDeep, .stringTooLong, .arrayTooLong,
    .objectTooLarge, .numberTooLong, .tooManyValues, .notAnObject,
  ]

  /// One WebSocket message from the client: the compression envelope opened (when negotiated), the
  /// sealed frame opened (when authenticated frames are in force), the frame decoded once with the
  /// connection's version, then acted on; or the violation reported (STANDARDS.md#state-machine).
  ///
  /// A text envelope (`compression_text`) is told from a frame by the decode itself: its type,
  /// `compressed`, is no message type, so the direct decode reads it as an unknown object (one
  /// parse, as any unknown type), which is then opened and its frame decoded. Every other text
  /// message, one that mentions `"compressed"` in a string too, stays on the direct path.
  ///
  /// A text message without a channel, the common case, is decoded as it came, here: the frame is
  /// not copied, and the decoded message is moved, not copied, to ``dispatch(_:now:_:)``.
  mutating func receive(_ message: WebSocketMessage, now: Int64, _ out: inout ServerActions) {
    if channel == nil, case .text(let frame) = message { return receive(frame: frame, text: true, now: now, &out) }
    guard let frame = openFrame(message, &out) else { return }
    let text = if case .text = message { true } else { false }
    receive(frame: frame, text: text, now: now, &out)
  }

  /// The frame of a message received (`text`: of a text message), decoded and acted on.
  ///
  /// Decoded by ``directPath`` first, not by calling ``decoder``'s `decode`: that copied the whole
  /// decoder out of the engine for every frame (160 bytes, 29 instructions of `memcpy`), and so did
  /// a class holding it, a method on that class and a pointer to it, each at a higher cost (about 300
  /// instructions a frame more). The direct path's few plain values cost nothing to pass.
  mutating func receive(frame bytes: [UInt8], text: Bool, now: Int64, _ out: inout ServerActions) {
    if let message = directPath?.decodeClient(bytes) { return dispatch(message, now: now, &out) }
    guard let decoded = decodeOffTheDirectPath(bytes, &out) else { return }
    act(on: decoded, frame: bytes, text: text, now: now, &out)
  }

  /// The frame decoded with the connection's version, or `nil` after reporting it.
  mutating func decodeFrame(_ bytes: [UInt8], _ out: inout ServerActions) -> AnyMessage? {
    if let message = directPath?.decode(bytes) { return message }
    return decodeOffTheDirectPath(bytes, &out)
  }

  /// A frame the direct path does not read: the decoder's tree path and validator
  /// (`MessageDecoder.decodeOffTheDirectPath`), or `nil` after reporting it.
  @inline(never)
  mutating func decodeOffTheDirectPath(_ bytes: [UInt8], _ out: inout ServerActions) -> AnyMessage? {
    do {
      return try decoder.decodeOffTheDirectPath(bytes)
    } catch {
      return decodeAgain(bytes, failure: error, &out)
    }
  }

  /// Acts on the decoded frame `bytes` (taken, not copied): a client message is dispatched, a text
  /// envelope (`text`, `compression_text`, no channel) opened and its frame decoded and acted on.
  mutating func act(
    on decoded: consuming AnyMessage, frame bytes: [UInt8], text: Bool, now: Int64, _ out: inout ServerActions
  ) {
    switch consume decoded {
    case .client(let message): dispatch(message, now: now, &out)
    case .unknown(let object):
      if channel == nil, envelopes.text, text, EnvelopeForm.isTextEnvelope(object) {
        return receiveTextEnvelope(object, now: now, &out)
      }
      dispatch(.unknown(object), now: now, &out)
    case .server(let message): rejectServerType(message.type, bytes, &out)
    }
  }

  /// A text envelope (`compression_text`, no channel): its frame opened, decoded and acted on (an
  /// envelope inside is an unknown type, not opened again).
  @inline(never)
  mutating func receiveTextEnvelope(_ envelope: JSONObject, now: Int64, _ out: inout ServerActions) {
    guard let inner = openTextEnvelope(envelope, &out), let decoded = decodeFrame(inner, &out) else { return }
    act(on: decoded, frame: inner, text: false, now: now, &out)
  }

  /// A server type in a client frame. Not reached: the decoder's direction is client to server, so
  /// a server type is an error.
  @inline(never)
  mutating func rejectServerType(_ type: String, _ bytes: [UInt8], _ out: inout ServerActions) {
    let finding = Finding(.error, .wrongDirection, pointer: "/type", messageType: type, message: "a server type")
    reject(DecodingFailure(findings: [finding], messageType: type), bytes, &out)
  }

  /// A frame the connection's version refused: a `connect` once authenticated is read again as
  /// before negotiation, whatever the connection's version (a second handshake negotiates again, and
  /// is refused as too old by the engine, not by a version rule); anything else, or a `connect` that
  /// fails that too, is reported (`nil`).
  @inline(never)
  mutating func decodeAgain(_ bytes: [UInt8], failure: DecodingFailure, _ out: inout ServerActions) -> AnyMessage? {
    guard failure.messageType == "connect", state == .authenticated else {
      reject(failure, bytes, &out)
      return nil
    }
    do {
      return try Self.decoder(for: Self.handshakeVersion).decode(bytes)
    } catch {
      reject(error, bytes, &out)
      return nil
    }
  }

  /// The frame inside `message` before it is decoded: a binary message is a binary envelope, opened
  /// only with its form negotiated (STANDARDS.md#compression); with authenticated frames in force,
  /// the sealed frame is then opened (STANDARDS.md#authenticated-frames: a plain, malformed, altered,
  /// replayed or reordered one closes the connection). A text message is otherwise the frame as it
  /// came (a text envelope is recognised by its decode, ``receive(_:now:_:)``), except that with
  /// both authenticated frames and `compression_text` it is parsed once here to tell an envelope
  /// from a sealed frame. `nil` when something does not open (reported).
  @inline(never)
  mutating func openFrame(_ message: WebSocketMessage, _ out: inout ServerActions) -> [UInt8]? {
    var bytes: [UInt8]
    var sealed: JSONObject?
    switch message {
    case .binary(let payload):
      guard envelopes.binary, let opener = configuration.envelopes else {
        refuseEnvelope(
          Finding(
            .error, .extensionNotNegotiated, pointer: "",
            message: "a binary message, but compression_binary was not negotiated"), &out)
        return nil
      }
      do {
        bytes = try opener.open(binary: payload)
      } catch {
        refuseEnvelope(Finding(.error, FindingCode(rawValue: error.code), pointer: "", message: "\(error)"), &out)
        return nil
      }
    case .text(let payload):
      bytes = payload
      if channel != nil, envelopes.text,
        case .object(let object)? = try? JSONReader(knownKeys: .protocolNames).parse(payload)
      {
        if EnvelopeForm.isTextEnvelope(object) {
          guard let inner = openTextEnvelope(object, &out) else { return nil }
          bytes = inner
        } else {
          sealed = object
        }
      }
    }
    guard channel != nil else { return bytes }
    do {
      if let sealed { return Array(try channel!.open(object: sealed).utf8) }
      return try channel!.open(bytes)
    } catch {
      refuseSealed(error, &out)
      return nil
    }
  }

  /// The frame inside a text envelope, or `nil` after refusing it.
  mutating func openTextEnvelope(_ envelope: JSONObject, _ out: inout ServerActions) -> [UInt8]? {
    do throws(EnvelopeError) {
      // Only with compression_text negotiated, which the engine offers only with envelopes to open it.
      guard let opener = configuration.envelopes else { throw .malformed }
      return try opener.open(textEnvelope: envelope)
    } catch {
      refuseEnvelope(Finding(.error, FindingCode(rawValue: error.code), pointer: "", message: "\(error)"), &out)
      return nil
    }
  }

  /// An envelope that does not open (or is not negotiated): dropped with an `error` answer, or, with
  /// authenticated frames in force, where only genuine frames are accepted, the connection closed.
  mutating func refuseEnvelope(_ finding: Finding, _ out: inout ServerActions) {
    if channel != nil {
      return violate(
        type: nil, [finding], answer: nil,
        close: .authenticatedFrame(.malformed(reason: "an envelope that does not open")), &out)
    }
    violate(type: nil, [finding], answer: Self.processingError(finding), close: nil, &out)
  }

  /// A sealed frame the channel refused: the connection closes (STANDARDS.md#authenticated-frames).
  mutating func refuseSealed(_ error: AuthenticatedFrameError, _ out: inout ServerActions) {
    let code: FindingCode
    switch error {
    case .replayed, .sequenceGap: code = .frameSequence
    default: code = .unauthenticatedFrame
    }
    let reason = CloseReason.authenticatedFrame(error)
    violate(
      type: nil, [Finding(.error, code, pointer: "", message: reason.description)], answer: nil, close: reason, &out)
  }

  /// A frame that failed validation, answered per the policy of STANDARDS.md#state-machine: unreadable,
  /// `error` and the socket stays open; before authentication anything but `ping`/`connect` is
  /// refused (`auth_error`, close), and so is a `connect` or `ping` that fails (a handshake
  /// violation); after it, `subscribe` gets the real server's refusal and any other frame the
  /// generic `error`, and the connection goes on.
  mutating func reject(_ failure: DecodingFailure, _ bytes: [UInt8], _ out: inout ServerActions) {
    let errors = failure.findings.filter { $0.severity == .error }
    let shown = errors.isEmpty ? failure.findings : errors
    if let first = shown.first, shown.allSatisfy({ Self.unreadableCodes.contains($0.code) }) {
      return violate(type: nil, failure.findings, answer: Self.processingError(first), close: nil, &out)
    }
    let type = failure.messageType
    let handshake = type.map { Self.acceptedBeforeAuthentication.contains(FrameType($0)) } ?? false
    if !handshake, state != .authenticated {
      return refuseBeforeAuthentication(type: type, &out)
    }
    if handshake {
      // A handshake that fails (a second one too) is refused like a wrong credential.
      return violate(
        type: type, failure.findings, answer: .authError(AuthErrorMessage(message: "Authentication failed")),
        close: .authFailed, &out)
    }
    var answer: ServerMessage = Self.processingError(Self.shownFinding(shown))
    if type == "subscribe", case .object(let frame)? = try? JSONReader(knownKeys: .protocolNames).parse(bytes),
      let refusal = subscribeRefusal(frame)
    {
      answer = .error(refusal)
    }
    violate(type: type, failure.findings, answer: answer, close: nil, &out)
  }

  /// Before authentication only `ping` and `connect` (STANDARDS.md#before-authentication): anything
  /// else, a frame without a type too, gets `auth_error` and the connection closes.
  mutating func refuseBeforeAuthentication(type: String?, _ out: inout ServerActions) {
    let finding = Finding(
      .error, .beforeAuthentication, pointer: "", messageType: type,
      message: "only ping and connect are accepted before authentication")
    violate(
      type: type, [finding], answer: .authError(AuthErrorMessage(message: "Authentication failed")),
      close: .notAuthenticated, &out)
  }

  /// The finding an `error` answer names: the least by pointer, then code (so that any
  /// implementation names the same one, whatever order it finds them in).
  static func shownFinding(_ findings: [Finding]) -> Finding {
    findings.min { ($0.pointer, $0.code.rawValue) < ($1.pointer, $1.code.rawValue) }!
  }

  /// The `error` answering a frame the engine dropped: the real server's `Error processing message: `,
  /// then the finding's code and, when it names a member, ` at ` and its pointer (at most 60 Unicode
  /// scalars, then `…`).
  static func processingError(_ finding: Finding) -> ServerMessage {
    var text = "Error processing message: " + finding.code.rawValue
    if !finding.pointer.isEmpty {
      let scalars = finding.pointer.unicodeScalars
      let shown = scalars.count <= 60 ? finding.pointer : String(String.UnicodeScalarView(scalars.prefix(60))) + "…"
      text += " at " + shown
    }
    return .error(ErrorMessage(message: text))
  }

  /// Reports a violation: the answer (if any), the application's ``ServerApplicationEvent/violation(_:)``,
  /// then, when the policy closes, the end of the connection (timers cancelled, close, `closed`).
  mutating func violate(
    type: String?, _ findings: [Finding], answer: ServerMessage?, close reason: CloseReason?,
    _ out: inout ServerActions
  ) {
    if let answer { emit(answer, &out) }
    let violation = ProtocolViolation(
      messageType: type.map(Finding.shownType), findings: findings,
      disposition: reason.map { .closed($0) } ?? .dropped)
    out.append(.deliver(.violation(violation)))
    if let reason { finish(reason, close: true, &out) }
  }
}
