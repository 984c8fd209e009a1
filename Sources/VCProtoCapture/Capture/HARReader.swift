import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Streams the WebSocket messages out of a HAR file without building the document.
///
/// A small scanner follows the JSON structure byte by byte (strings, escapes, nesting) and finds
/// every `"_webSocketMessages"` array, comparing member names after decoding their escapes (so
/// `"_webSocket\u004dessages"` is found as a JSON reader would find it); each element object is captured on its own and parsed with
/// ``JSONReader``. Each array is one connection. A cut-off file yields `truncated_input` after
/// everything that was read; mismatched brackets yield `invalid_capture` and stop the scan; nesting
/// deeper than ``CaptureLimits/maxHARDepth`` yields `nesting_too_deep` and stops the scan. Memory is
/// bounded by the chunk size, one message (``CaptureLimits/maxHARMessageBytes``) and the depth bound.
public final class HARReader: CaptureReader {
  private enum Container {
    case object(expectingKey: Bool)
    case array(holdsMessages: Bool)
  }

  private let source: ByteSource
  private let chunkSize: Int
  private let maxMessageBytes: Int
  private let maxDepth: Int
  private var chunk: [UInt8] = []
  private var index = 0
  private var atEnd = false
  private var finished = false

  private var stack: [Container] = []
  private var inString = false
  private var escaped = false
  private var stringIsKey = false
  /// The member name being read, escapes decoded (only as far as it could still equal
  /// `_webSocketMessages`: it is ASCII, so anything else decoded sets ``keyOverflow``).
  private var key: [UInt8] = []
  private var keyOverflow = false
  /// Hex digits of a `\u` escape still to come in a member name, and their value so far.
  private var keyHexDigits = 0
  private var keyHexValue: UInt32 = 0
  private var valueIsMessages = false

  private var capture: [UInt8] = []
  private var capturing = false
  private var captureDepth = 0
  private var captureOverflow = false

  private var entry = 0
  private var connection = -1
  private var arraysSeen = 0
  private static let messagesKey = Array("_webSocketMessages".utf8)

  /// Reads `source` in chunks of `chunkSize` bytes; see ``CaptureLimits`` for the two bounds.
  public init(
    source: ByteSource, chunkSize: Int = 64 * 1024, maxMessageBytes: Int = CaptureLimits.default.maxHARMessageBytes,
    maxDepth: Int = CaptureLimits.default.maxHARDepth
  ) {
    self.source = source
    self.chunkSize = max(1, chunkSize)
    self.maxMessageBytes = maxMessageBytes
    self.maxDepth = max(1, maxDepth)
  }

  public var bytesRead: Int { source.bytesRead }

  public func next() throws -> CapturedFrame? {
    while !finished {
      if index == chunk.count {
        if atEnd { return finish() }
        chunk = try source.read(upTo: chunkSize)
        index = 0
        if chunk.isEmpty {
          atEnd = true
          continue
        }
      }
      if inString, !escaped, !stringIsKey {
        // Inside a string value nothing but `"` and `\` matters: take the run up to the next one at once.
        let end = chunk[index...].firstIndex { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") } ?? chunk.count
        if end > index {
          keep(chunk[index..<end])
          index = end
          continue
        }
      }
      let byte = chunk[index]
      keep(chunk[index..<(index + 1)])
      index += 1
      if let item = step(byte) { return item }
    }
    return nil
  }

  /// Adds scanned bytes to the message being captured, if any, up to ``CaptureLimits/maxHARMessageBytes``
  /// (beyond it the message is dropped and only its end is still looked for).
  private func keep(_ bytes: ArraySlice<UInt8>) {
    guard capturing, !captureOverflow else { return }
    if capture.count + bytes.count <= maxMessageBytes {
      capture.append(contentsOf: bytes)
    } else {
      captureOverflow = true
      capture = []
    }
  }

  /// Advances the scanner by one byte; returns an item when a message object or an error completes.
  private func step(_ byte: UInt8) -> CapturedFrame? {
    if inString {
      if stringIsKey, keyHexDigits > 0, let digit = Self.hexValue(byte) {
        keyHexValue = keyHexValue << 4 | UInt32(digit)
        keyHexDigits -= 1
        if keyHexDigits == 0 {
          // A decoded member name is compared, so `_webSocket\u004dessages` is found too.
          if keyHexValue < 0x80 { appendKey(UInt8(keyHexValue)) } else { keyOverflow = true }
        }
        return nil
      }
      if keyHexDigits > 0 {
        // Not a hex digit: a broken escape, so the name cannot be the one looked for.
        keyHexDigits = 0
        keyOverflow = true
      }
      if escaped {
        escaped = false
        if stringIsKey { keyEscape(byte) }
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
        if stringIsKey { valueIsMessages = !keyOverflow && key == Self.messagesKey }
      } else if stringIsKey {
        appendKey(byte)
      }
      return nil
    }
    switch byte {
    case UInt8(ascii: "\""):
      inString = true
      if case .object(let expectingKey)? = stack.last, expectingKey {
        stringIsKey = true
        key.removeAll(keepingCapacity: true)
        keyOverflow = false
        keyHexDigits = 0
      } else {
        stringIsKey = false
        valueIsMessages = false
      }
    case UInt8(ascii: ":"):
      if case .object? = stack.last { stack[stack.count - 1] = .object(expectingKey: false) }
    case UInt8(ascii: ","):
      if case .object? = stack.last {
        stack[stack.count - 1] = .object(expectingKey: true)
        valueIsMessages = false
      }
    case UInt8(ascii: "{"):
      guard stack.count < maxDepth else { return tooDeep() }
      if case .array(true)? = stack.last, !capturing {
        capturing = true
        captureOverflow = false
        captureDepth = stack.count
        capture = [byte]
      }
      stack.append(.object(expectingKey: true))
      valueIsMessages = false
    case UInt8(ascii: "["):
      guard stack.count < maxDepth else { return tooDeep() }
      let holds = valueIsMessages && !capturing
      if holds {
        connection += 1
        arraysSeen += 1
      }
      stack.append(.array(holdsMessages: holds))
      valueIsMessages = false
    case UInt8(ascii: "}"):
      guard case .object? = stack.popLast() else { return broken("'}' does not close an object") }
      if capturing, stack.count == captureDepth {
        capturing = false
        return message()
      }
    case UInt8(ascii: "]"):
      guard case .array? = stack.popLast() else { return broken("']' does not close an array") }
    default:
      break
    }
    return nil
  }

  /// Adds a decoded byte to the member name being read.
  private func appendKey(_ byte: UInt8) {
    guard !keyOverflow else { return }
    if key.count < Self.messagesKey.count { key.append(byte) } else { keyOverflow = true }
  }

  /// Decodes the character after a backslash in a member name (JSON's escapes).
  private func keyEscape(_ byte: UInt8) {
    switch byte {
    case UInt8(ascii: "u"):
      keyHexDigits = 4
      keyHexValue = 0
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): appendKey(byte)
    case UInt8(ascii: "b"): appendKey(0x08)
    case UInt8(ascii: "f"): appendKey(0x0C)
    case UInt8(ascii: "n"): appendKey(0x0A)
    case UInt8(ascii: "r"): appendKey(0x0D)
    case UInt8(ascii: "t"): appendKey(0x09)
    default: keyOverflow = true
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// Parses one captured `_webSocketMessages` element.
  private func message() -> CapturedFrame? {
    defer {
      capture = []
      entry += 1
    }
    var frame = CapturedFrame(position: .entry(entry), payload: nil, connection: connection)
    if captureOverflow {
      frame.findings.append(
        Finding(.error, .frameTooLarge, pointer: "", message: "HAR message is larger than \(maxMessageBytes) bytes"))
      return frame
    }
    var limits = JSONLimits.default
    limits.maxFrameBytes = maxMessageBytes
    limits.maxStringBytes = maxMessageBytes
    let parsed: JSONValue
    do throws(JSONReadError) {
      parsed = try JSONReader(limits: limits).parse(capture)
    } catch {
      // The reader's own code (`nesting_too_deep`, `invalid_utf8`, `duplicate_key`, ...), not a generic one.
      frame.findings.append(
        Finding(
          .error, FindingCode(rawValue: error.kind.rawValue), pointer: "",
          message: "HAR message is not valid JSON: \(Redaction.redactedText(error.description))"))
      return frame
    }
    guard case .object(let object) = parsed else {
      frame.findings.append(
        Finding(.error, .invalidRecord, pointer: "", message: "HAR message is not a JSON object"))
      return frame
    }
    if let opcode = object["opcode"]?.int64Value, opcode != 1, opcode != 2 {
      // Control frames (close, ping, pong) carry no protocol message.
      entry -= 1
      return nil
    }
    CaptureRecord.fill(&frame, from: object, directionKey: "type")
    return frame
  }

  /// Stops the scan: the stack would grow past ``CaptureLimits/maxHARDepth``.
  private func tooDeep() -> CapturedFrame {
    stop(.nestingTooDeep, "HAR nests deeper than \(maxDepth) levels near byte \(offset)")
  }

  /// Stops the scan: the brackets do not match.
  private func broken(_ what: String) -> CapturedFrame {
    stop(.invalidCapture, "HAR is not well-formed JSON near byte \(offset): \(what)")
  }

  /// The offset of the byte just scanned.
  private var offset: Int { source.bytesRead - (chunk.count - index) - 1 }

  private func stop(_ code: FindingCode, _ what: String) -> CapturedFrame {
    finished = true
    stack = []
    capture = []
    return CapturedFrame(
      position: .entry(entry), payload: nil,
      findings: [Finding(.error, code, pointer: "", message: "\(what); reading stopped after \(entry) frames")],
      connection: max(connection, 0), isFrame: false)
  }

  private func finish() -> CapturedFrame? {
    finished = true
    if !stack.isEmpty || inString {
      let lost = capturing ? " (the last message was cut off)" : ""
      return CapturedFrame(
        position: .entry(entry), payload: nil,
        findings: [
          Finding(
            .error, .truncatedInput, pointer: "",
            message: "HAR ends early, inside \(stack.count) unclosed value(s)\(lost); \(entry) frames were read")
        ], connection: max(connection, 0), isFrame: false)
    }
    if arraysSeen == 0 {
      return CapturedFrame(
        position: .entry(0), payload: nil,
        findings: [
          Finding(.warning, .noFrames, pointer: "", message: "HAR has no \"_webSocketMessages\" (no WebSocket frames)")
        ], isFrame: false)
    }
    return nil
  }
}
