import VCProtoCore
import VCProtoJSON

extension EnvelopeCodec {
  /// Opens a text-form envelope from the complete bytes of the text WebSocket message.
  ///
  /// The frame is parsed with the package's strict ``JSONReader`` (RFC 8259, UTF-8
  /// validated, duplicate keys rejected). Receivers accept the members in any order,
  /// with any JSON whitespace and with any string escapes, and ignore members other than
  /// `type`, `encoding`, `length` and `data` (STANDARDS.md#compression); senders always
  /// write the compact form ``seal(_:form:)`` produces.
  ///
  /// Errors, checked in this order whatever the member order on the wire:
  /// - `tooLarge`: the frame is longer than base64 of `limits.maxCompressedSize` plus
  ///   64 KiB (or its `data` string longer than that base64), before anything is decoded;
  /// - `malformed`: not JSON, not an object, a duplicate key, or `type` is not the
  ///   string `"compressed"`;
  /// - then exactly as ``open(textEnvelope:)``.
  ///
  /// - Returns: the inner frame bytes (UTF-8 JSON text, which the caller still validates).
  public func open(textFrame bytes: [UInt8]) throws(EnvelopeError) -> [UInt8] {
    let object = try parseTextFrame(bytes)
    return try open(textEnvelope: object)
  }

  /// Opens a text-form envelope that is already parsed (for a receiver that parsed the
  /// text frame to dispatch on its `type`).
  ///
  /// Errors, in this order: `malformed` when `type` is not `"compressed"`, `encoding` is
  /// missing or not a string; `unknownEncoding` for an encoding other than `"zlib"` or
  /// `"gzip"`; `malformed` when `length` is missing, not an integer literal (`2.0` and
  /// `2e0` are not) or outside `0...UInt32.max`, or `data` is missing or not a string;
  /// then the checks of ``open(text:length:data:)``. Other members are ignored.
  public func open(textEnvelope object: JSONObject) throws(EnvelopeError) -> [UInt8] {
    guard object["type"]?.stringValue == TextEnvelope.typeName,
      let encodingName = object["encoding"]?.stringValue
    else { throw .malformed }
    guard EnvelopeEncoding(name: encodingName) != nil else { throw .unknownEncoding }
    guard case .number(let number)? = object["length"], number.isIntegerLiteral,
      let length = number.int64Value.flatMap({ Int(exactly: $0) }),
      case .string(let base64)? = object["data"]
    else { throw .malformed }
    return try open(text: encodingName, length: length, data: base64)
  }

  /// Whether a parsed text frame is a text envelope: a JSON object whose `type` is the
  /// string `"compressed"`. Such a frame is opened (and any error reported as an envelope
  /// error), never validated as a protocol message itself.
  public static func isTextEnvelope(_ value: JSONValue) -> Bool {
    guard case .object(let object) = value else { return false }
    return EnvelopeForm.isTextEnvelope(object)
  }

  /// The longest text frame worth parsing under these limits: the base64 of the largest
  /// accepted compressed stream, plus 64 KiB for the other members and whitespace.
  var maxTextFrameSize: Int {
    let (base64, overflow) = (max(0, limits.maxCompressedSize) / 3 + 1).multipliedReportingOverflow(by: 4)
    let (total, overflowAgain) = base64.addingReportingOverflow(64 * 1024)
    return overflow || overflowAgain ? Int.max : total
  }

  /// Parses a text frame into the envelope object.
  private func parseTextFrame(_ bytes: [UInt8]) throws(EnvelopeError) -> JSONObject {
    let bound = maxTextFrameSize
    guard bytes.count <= bound else { throw .tooLarge }
    let reader = JSONReader(limits: JSONLimits(maxFrameBytes: bound, maxStringBytes: bound), knownKeys: .protocolNames)
    let value: JSONValue
    do {
      value = try reader.parse(bytes)
    } catch {
      switch error.kind {
      case .frameTooLarge, .stringTooLong: throw .tooLarge
      default: throw .malformed
      }
    }
    guard case .object(let object) = value, Self.isTextEnvelope(value) else { throw .malformed }
    return object
  }
}
