import VCProtoCore
import VCProtoJSON

/// Seals JSON frames into compression envelopes and opens received envelopes.
///
/// Use it only after the peers negotiated `compression_binary` (binary form) or
/// `compression_text` (text form). The codec is a value type with no shared state and is
/// safe to use from any task.
///
/// ```swift
/// let codec = EnvelopeCodec()
/// if let sealed = try codec.seal(frame, form: .binary) { send(binary: sealed) }
/// else { send(text: frame) }
/// // receiving a binary message:
/// let frame = try codec.open(binary: message)
/// // receiving a text message that is a text envelope (`{"type":"compressed",...}`):
/// let inner = try codec.open(textFrame: textMessage)
/// ```
///
/// To open *and* validate a received frame in one step, with envelope errors reported as
/// findings, use `Validator.validate(envelopedFrame:codec:)`.
public struct EnvelopeCodec: Sendable {
  /// Sender-side settings (threshold, level, encoding).
  public var configuration: EnvelopeConfiguration
  /// Receiver-side limits applied by every `open`.
  public var limits: EnvelopeLimits

  /// Creates a codec with the given settings, protocol defaults otherwise.
  public init(configuration: EnvelopeConfiguration = .default, limits: EnvelopeLimits = .default) {
    self.configuration = configuration
    self.limits = limits
  }

  // MARK: Sealing

  /// Compresses one serialized JSON frame into an envelope of the given form.
  ///
  /// - Parameters:
  ///   - frame: the UTF-8 JSON text of one protocol message (not validated here).
  ///   - form: `.binary` for a binary WebSocket message, `.text` for a text message
  ///     (the returned bytes are then UTF-8 JSON).
  /// - Returns: the envelope bytes, or `nil` when `frame` is shorter than
  ///   `configuration.threshold`, in which case the frame must be sent as is.
  /// - Throws: `EnvelopeError.tooLarge` when the frame is longer than `UInt32.max` or
  ///   than `limits.maxInflatedSize` (a peer with the same limits would refuse it).
  public func seal(_ frame: [UInt8], form: EnvelopeForm) throws(EnvelopeError) -> [UInt8]? {
    guard frame.count >= configuration.threshold else { return nil }
    guard frame.count <= limits.maxInflatedSize, let declared = UInt32(exactly: frame.count)
    else { throw .tooLarge }
    let header = BinaryEnvelope.Header(encoding: configuration.encoding, declaredLength: declared)
    switch form {
    case .binary:
      var envelope = Deflater.compress(
        frame, encoding: header.encoding, level: configuration.effectiveLevel,
        reservingHeader: BinaryEnvelope.headerSize)
      BinaryEnvelope.writeHeader(header, into: &envelope)
      return envelope
    case .text:
      let compressed = Deflater.compress(
        frame, encoding: header.encoding, level: configuration.effectiveLevel,
        reservingHeader: 0)
      return compressed.withUnsafeBufferPointer {
        TextEnvelope.encode(encoding: header.encoding, declaredLength: declared, compressed: $0)
      }
    }
  }

  /// Text-form convenience: ``seal(_:form:)`` with `.text`, returned as a `String`.
  public func sealText(_ frame: [UInt8]) throws(EnvelopeError) -> String? {
    guard let bytes = try seal(frame, form: .text) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: Opening

  /// Whether a binary WebSocket message is an envelope (starts with the `"VC"` magic).
  ///
  /// A JSON text never starts with `V`, so anything else is a plain frame.
  public func isBinaryEnvelope(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { BinaryEnvelope.hasMagic($0) }
  }

  /// Opens a binary-form envelope and returns the inner frame bytes (UTF-8 JSON text,
  /// which the caller still validates).
  ///
  /// Checks, in order: header fields (`badMagic`, `unsupportedVersion`, `reservedFlags`,
  /// `unknownEncoding`, `truncatedHeader`); declared length against `maxInflatedSize`
  /// and compressed size against `maxCompressedSize` (`tooLarge`); a gzip header against
  /// `maxGzipHeaderSize` (`gzipHeaderTooLarge`); then inflates with the
  /// limits enforced while inflating (`ratioExceeded`, `inflateLimit`) and checks the
  /// stream (`corrupt`, `truncated`, `trailingData`, `lengthMismatch`).
  public func open(binary bytes: [UInt8]) throws(EnvelopeError) -> [UInt8] {
    try bytes.withUnsafeBufferPointer { (buffer) throws(EnvelopeError) -> [UInt8] in
      let header = try BinaryEnvelope.parseHeader(buffer)
      let payload = UnsafeBufferPointer(rebasing: buffer[BinaryEnvelope.headerSize...])
      return try inflate(
        payload, encoding: header.encoding, declaredLength: Int(header.declaredLength))
    }
  }

  /// Opens a text-form envelope from its already-extracted fields.
  ///
  /// Most receivers want ``open(textFrame:)`` (the whole text message) or
  /// ``open(textEnvelope:)`` (an already-parsed object), which extract these fields with
  /// the package's strict JSON reader. A caller extracting them itself must report a
  /// missing field or a field of the wrong JSON type as `EnvelopeError.malformed`.
  ///
  /// - Parameters:
  ///   - encoding: the `encoding` field, `"zlib"` or `"gzip"` (else `unknownEncoding`).
  ///   - length: the `length` field; outside `0...UInt32.max` is `malformed`.
  ///   - base64: the `data` field; anything but strict padded standard base64 is
  ///     `invalidBase64`.
  /// - Returns: the inner frame bytes.
  public func open(text encoding: String, length: Int, data base64: String)
    throws(EnvelopeError) -> [UInt8]
  {
    guard let encoding = EnvelopeEncoding(name: encoding) else { throw .unknownEncoding }
    guard length >= 0, length <= Int(UInt32.max) else { throw .malformed }
    guard length <= limits.maxInflatedSize else { throw .tooLarge }
    // Refuse oversized payloads before spending time decoding them.
    guard Base64.maxDecodedCount(base64.utf8.count) - 2 <= limits.maxCompressedSize else {
      throw .tooLarge
    }
    guard let compressed = Base64.decode(base64) else { throw .invalidBase64 }
    return try compressed.withUnsafeBufferPointer { (payload) throws(EnvelopeError) -> [UInt8] in
      try inflate(payload, encoding: encoding, declaredLength: length)
    }
  }

  /// The shared size checks and bounded inflation of both forms.
  private func inflate(
    _ payload: UnsafeBufferPointer<UInt8>, encoding: EnvelopeEncoding, declaredLength: Int
  ) throws(EnvelopeError) -> [UInt8] {
    guard declaredLength <= limits.maxInflatedSize else { throw .tooLarge }
    guard payload.count <= limits.maxCompressedSize else { throw .tooLarge }
    if encoding == .gzip { try GzipHeader.check(payload, limit: limits.maxGzipHeaderSize) }
    return try Inflater.inflate(
      payload, encoding: encoding, declaredLength: declaredLength,
      outputLimit: limits.maxInflatedSize, maxCompressionRatio: limits.maxCompressionRatio)
  }
}
