import VCProtoCore
import VCProtoJSON

/// The verdict on one received WebSocket message that may be a compression envelope.
public struct EnvelopedValidationReport: Sendable {
  /// The envelope form the message arrived in; `nil` for a plain text frame.
  public var envelope: EnvelopeForm?
  /// The frame the findings' pointers refer to: the opened envelope's inner frame, or the
  /// text frame itself when it was plain; `nil` when the envelope did not open.
  public var frame: [UInt8]?
  /// The inner message's report. When the envelope did not open it holds exactly one error
  /// finding whose code is the envelope error's (e.g. `envelope_corrupt`), and no value.
  public var report: ValidationReport

  /// `true` when no finding is an error.
  public var isValid: Bool { report.isValid }
  /// Every finding: envelope level first, then those of the inner message.
  public var findings: [Finding] { report.findings }
}

extension Validator {
  /// Validates one received WebSocket message, opening it first when it is a compression
  /// envelope, and reports findings against the inner message.
  ///
  /// - A binary message is opened as a binary envelope (``EnvelopeCodec/open(binary:)``).
  /// - A text message is parsed once; a JSON object whose `type` is `"compressed"` is opened
  ///   as a text envelope (``EnvelopeCodec/open(textEnvelope:)``), anything else is validated
  ///   as a plain frame, exactly like ``validate(_:)-([UInt8])``.
  ///
  /// An envelope that does not open yields one error finding with the envelope error's code
  /// (pointer `""`, message type `"compressed"` for the text form). An opened frame is
  /// validated like a plain text frame; an inner frame that is itself a text envelope is not
  /// opened again (envelopes do not nest) and is reported as the unknown type `compressed`.
  /// When ``ValidationOptions/negotiatedCapabilities`` is set and lacks `compression_binary`
  /// (binary form) or `compression_text` (text form), an `extension_not_negotiated` error is
  /// added before the inner message's findings.
  ///
  /// - Parameters:
  ///   - envelopedFrame: the message as received, text or binary.
  ///   - codec: opens envelopes; its ``EnvelopeCodec/limits`` bound the inflated size.
  public func validate(envelopedFrame: WebSocketMessage, codec: EnvelopeCodec = EnvelopeCodec())
    -> EnvelopedValidationReport
  {
    switch envelopedFrame {
    case .binary(let bytes):
      let opened: [UInt8]
      do throws(EnvelopeError) {
        opened = try codec.open(binary: bytes)
      } catch {
        return failed(error, form: .binary)
      }
      return validateInner(opened, form: .binary)
    case .text(let bytes):
      let parsed: JSONValue
      do {
        parsed = try JSONReader(limits: options.limits, knownKeys: .protocolNames).parse(bytes)
      } catch {
        return EnvelopedValidationReport(envelope: nil, frame: bytes, report: report(readError: error, frame: bytes))
      }
      guard EnvelopeCodec.isTextEnvelope(parsed), case .object(let object) = parsed else {
        return EnvelopedValidationReport(envelope: nil, frame: bytes, report: validate(parsed))
      }
      let opened: [UInt8]
      do throws(EnvelopeError) {
        opened = try codec.open(textEnvelope: object)
      } catch {
        return failed(error, form: .text)
      }
      return validateInner(opened, form: .text)
    }
  }

  /// Validates an opened inner frame, after the negotiation check.
  private func validateInner(_ frame: [UInt8], form: EnvelopeForm) -> EnvelopedValidationReport {
    let capability = form == .binary ? Capability.compressionBinary : Capability.compressionText
    let notNegotiated = options.negotiatedCapabilities.map { !$0.contains(capability) } ?? false
    // The envelope's own finding counts against the frame's cap like any other.
    var inner = self
    if notNegotiated { inner.options.maxFindings = max(1, options.maxFindings - 1) }
    var report = inner.validate(frame)
    if notNegotiated {
      let finding = Finding(
        .error, .extensionNotNegotiated, pointer: "", messageType: report.messageType,
        message: "compressed frame (\(form) envelope) but the peers did not negotiate \(capability)")
      logger.log(findings: [finding])
      report.findings.insert(finding, at: 0)
    }
    return EnvelopedValidationReport(envelope: form, frame: frame, report: report)
  }

  /// The report of an envelope that did not open.
  private func failed(_ error: EnvelopeError, form: EnvelopeForm) -> EnvelopedValidationReport {
    let type = form == .text ? TextEnvelope.typeName : nil
    let finding = Finding(
      .error, FindingCode(error), pointer: "", messageType: type,
      message: "\(form) envelope cannot be opened: \(Self.explanation(error))")
    logger.log(findings: [finding])
    let report = ValidationReport(findings: [finding], messageType: type, direction: options.direction, value: nil)
    return EnvelopedValidationReport(envelope: form, frame: nil, report: report)
  }

  /// A sentence for each envelope error.
  private static func explanation(_ error: EnvelopeError) -> String {
    switch error {
    case .badMagic: "it does not start with \"VC\""
    case .unsupportedVersion: "format version other than 1"
    case .reservedFlags: "reserved flags are not 0"
    case .unknownEncoding: "unknown encoding (only zlib and gzip exist)"
    case .truncatedHeader: "the 9-byte header is cut short"
    case .tooLarge: "declared or compressed size over the receiver's limit; nothing was inflated"
    case .inflateLimit: "inflated output went past the declared length or the limit; inflation was stopped"
    case .ratioExceeded: "inflated output went past the compression ratio limit; inflation was stopped"
    case .lengthMismatch: "the stream inflates to fewer bytes than declared"
    case .truncated: "the compressed stream is cut short"
    case .corrupt: "the compressed stream is corrupt or fails its checksum"
    case .trailingData: "bytes follow the end of the compressed stream"
    case .gzipHeaderTooLarge:
      "the gzip header's optional fields (extra, file name, comment) are over the receiver's limit; nothing was inflated"
    case .invalidBase64: "\"data\" is not canonical padded base64"
    case .malformed:
      "a text envelope needs \"encoding\" (string), \"length\" (integer 0...4294967295) and \"data\" (string)"
    }
  }
}
