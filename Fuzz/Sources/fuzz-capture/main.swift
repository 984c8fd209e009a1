import FuzzDriver
import VCProto
import VCProtoCapture

/// The capture readers and the whole `vcproto validate` pipeline (``CaptureValidator``, the command's
/// code) on arbitrary bytes.
///
/// The input's length picks the format (JSON Lines, HAR or one frame, in turn), so every input is read
/// as each format as the fuzzer mutates its length.
///
/// 1. The format's reader (JSON Lines for a single frame) reads the input twice, in chunks of a size
///    derived from the input (1 to 16 bytes, never more than about 64 reads) and in one chunk: reading
///    always ends, yields at most one item per input byte, and the chunking changes nothing (same
///    positions, payloads, directions, times, finding codes).
/// 2. ``CaptureValidator`` (`vcproto validate --format json --input <format> -`) runs the capture
///    validation, the conversation observer and the reporter: the exit status is 0 or 1 and agrees
///    with the error count; every output line is a JSON object; every finding has the required
///    members, a JSON Pointer and a known severity; the summary's counts add up (frames = valid +
///    invalid, errors and warnings = the findings printed, per-code counts = the findings); and the fake
///    API key never appears in the output; no character that could steer a terminal (control, bidi,
///    format) appears raw. On every fourth input the text reporter runs too and must agree on the exit
///    status and hold the same two properties.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let small = max(1 + Int(bytes.last ?? 0) % 16, size / 64)
  let limits = CaptureLimits(maxLineBytes: 4096, maxHARMessageBytes: 4096, maxHARDepth: 64, maxSingleFrameBytes: 8192)

  let format = [CaptureFormat.jsonl, .har, .frame][size % 3]

  // 1. The reader of that format (JSON Lines for a single frame): termination, bounded output, and
  // chunking does not matter.
  let reader = format == .har ? CaptureFormat.har : .jsonl
  let chunked = readAll(reader, bytes, chunk: small, limits: limits)
  let whole = readAll(reader, bytes, chunk: max(size, 1), limits: limits)
  precondition(chunked == whole, "\(reader): chunk size \(small) changes what is read")

  // 2. The whole validate pipeline (`--max-line-length 4096 --max-har-message-size 4096`).
  let validateLimits = CaptureLimits(maxLineBytes: 4096, maxHARMessageBytes: 4096)
  let json = run(.json, format, bytes, limits: validateLimits)
  precondition(json.status == 0 || json.status == 1, "exit status \(json.status)")
  precondition(!json.out.contains(secret), "the API key leaked")
  precondition(terminalSafe(json.out), "JSON output holds a raw control, bidi or format character")
  checkJSONLines(json.out, status: json.status)
  if size % 4 == 0 {  // the text reporter, on every fourth input (it costs a whole second run)
    let text = run(.text, format, bytes, limits: validateLimits)
    precondition(text.status == json.status, "text and JSON output disagree on the exit status")
    precondition(!text.out.contains(secret), "the API key leaked in text output")
    precondition(terminalSafe(text.out), "text output holds a raw control, bidi or format character")
  }
  return 0
}

/// Whether output could not steer a terminal: no control (C0, DEL, C1), format (bidi, zero-width,
/// tags) or separator character other than the line feeds that end lines (the characters the
/// output escapes).
func terminalSafe(_ output: String) -> Bool {
  !output.unicodeScalars.contains { scalar in
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: scalar != "\n"
    default: false
    }
  }
}

/// The fake key of the samples and the dictionary: a real secret's shape.
let secret = "untethered-00112233445566778899aabbccddeeff"

/// What a reader yields, in comparable form.
struct Item: Equatable {
  var position: FramePosition
  var payload: FramePayload?
  var direction: MessageDirection?
  var time: Double?
  var codes: [String]
  var connection: Int
  var isFrame: Bool
}

func readAll(_ format: CaptureFormat, _ bytes: [UInt8], chunk: Int, limits: CaptureLimits) -> [Item] {
  let source = ByteSource(bytes: bytes)
  let reader: CaptureReader =
    format == .har
    ? HARReader(
      source: source, chunkSize: chunk, maxMessageBytes: limits.maxHARMessageBytes, maxDepth: limits.maxHARDepth)
    : JSONLinesReader(source: source, chunkSize: chunk, maxLineLength: limits.maxLineBytes)
  var items: [Item] = []
  while let frame = try? reader.next() {
    items.append(
      Item(
        position: frame.position, payload: frame.payload, direction: frame.direction,
        time: frame.time.map { $0.isNaN ? -1 : $0 }, codes: frame.findings.map(\.code.rawValue),
        connection: frame.connection, isFrame: frame.isFrame))
    precondition(items.count <= bytes.count + 2, "\(format) reader does not terminate")
  }
  return items
}

/// `vcproto validate --format <output> --input <format> -` on `input` as standard input.
func run(
  _ output: CaptureValidator.Format, _ format: CaptureFormat, _ input: [UInt8], limits: CaptureLimits
) -> (status: Int32, out: String) {
  let out = OutputSink()
  let validator = CaptureValidator(format: output, output: out, limits: limits)
  try? validator.validate(ByteSource(bytes: input), name: "<stdin>", format: format)
  return (validator.finish(), out.text)
}

func checkJSONLines(_ output: String, status: Int32) {
  let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
  precondition(lines.last == "", "output does not end with a newline")
  var errors = 0
  var warnings = 0
  var codes: [String: Int] = [:]
  var summary: JSONObject?
  for (index, line) in lines.dropLast().enumerated() {
    guard case .object(let object)? = try? JSONReader().parse(String(line)) else {
      preconditionFailure("output line \(index + 1) is not a JSON object: \(line)")
    }
    if let s = object["summary"]?.objectValue {
      precondition(index == lines.count - 2, "the summary is not the last line")
      summary = s
      continue
    }
    for key in ["source", "direction", "type", "severity", "code", "pointer", "message"] {
      precondition(object[key] != nil, "a finding without \(key): \(line)")
    }
    precondition(object["line"]?.intValue != nil || object["entry"]?.intValue != nil, "no line or entry: \(line)")
    let pointer = object["pointer"]?.stringValue ?? "?"
    precondition(pointer.isEmpty || pointer.hasPrefix("/"), "bad pointer \(pointer)")
    switch object["severity"]?.stringValue {
    case "error": errors += 1
    case "warning": warnings += 1
    default: preconditionFailure("unknown severity: \(line)")
    }
    codes[object["code"]?.stringValue ?? "", default: 0] += 1
  }
  guard let summary else { preconditionFailure("no summary line") }
  func count(_ key: String) -> Int { summary[key]?.intValue ?? -1 }
  precondition(count("frames") == count("valid") + count("invalid"), "frames != valid + invalid")
  precondition(count("errors") == errors && count("warnings") == warnings, "summary counts differ from findings")
  precondition(count("unreadable") == 0, "standard input in memory counted as unreadable")
  precondition((errors > 0 ? 1 : 0) == status, "exit status \(status) with \(errors) errors")
  var summed: [String: Int] = [:]
  for member in summary["codes"]?.objectValue?.members ?? [] { summed[member.key] = member.value.intValue ?? -1 }
  precondition(summed == codes, "per-code counts differ from the findings")
}

runFuzzer(fuzzOne)
