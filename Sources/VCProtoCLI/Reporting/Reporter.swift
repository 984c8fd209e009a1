import VCProto

/// Writes findings as they are found and the summary at the end.
protocol Reporter {
  func report(_ record: FindingRecord)
  func finish(_ summary: ValidationSummary, sources: [String])
}

/// `file:line: type /pointer: severity: message [code]`, then a summary per type and per code.
struct TextReporter: Reporter {
  let out: OutputSink
  let color: Bool

  private func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func report(_ record: FindingRecord) {
    let f = record.finding
    let severity = f.severity == .error ? paint("error", "31;1") : paint("warning", "33;1")
    let pointer = f.pointer.isEmpty ? "/" : f.pointer
    out.line(
      "\(paint(record.location, "1")): \(record.messageType ?? "-") \(pointer): \(severity): \(f.message) "
        + paint("[\(f.code.rawValue)]", "2"))
  }

  func finish(_ summary: ValidationSummary, sources: [String]) {
    func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    let verdict = paint(summary.verdict, summary.verdict == "OK" ? "32;1" : "31;1")
    var line =
      "\(verdict) \(sources.joined(separator: ", ")): \(plural(summary.frames, "frame")), \(summary.valid) valid, "
      + "\(summary.invalid) invalid; \(plural(summary.errors, "error")), \(plural(summary.warnings, "warning"))"
    if !summary.unreadable.isEmpty {
      line += "; \(summary.unreadable.count) unreadable: \(summary.unreadable.joined(separator: ", "))"
    }
    out.line(line)
    if !summary.types.isEmpty {
      out.line("by type:")
      let width = max(20, summary.types.keys.map(\.count).max() ?? 0)
      for key in summary.types.keys.sorted() {
        let c = summary.types[key]!
        var row = "  " + key.padding(toLength: width, withPad: " ", startingAt: 0) + " " + plural(c.frames, "frame")
        if c.errors + c.warnings > 0 {
          row += ", \(plural(c.errors, "error")), \(plural(c.warnings, "warning"))"
        }
        out.line(row)
      }
    }
    if summary.codes.isEmpty {
      out.line("by code: none")
    } else {
      out.line("by code:")
      let width = max(20, summary.codes.keys.map(\.count).max() ?? 0)
      for key in summary.codes.keys.sorted() {
        out.line("  " + key.padding(toLength: width, withPad: " ", startingAt: 0) + " \(summary.codes[key]!)")
      }
    }
  }
}

/// JSON Lines: one object per finding, then `{"summary": {...}}`.
struct JSONLinesReporter: Reporter {
  let out: OutputSink

  func report(_ record: FindingRecord) {
    let f = record.finding
    var members: [JSONObject.Member] = [JSONObject.Member(key: "source", value: .string(record.source))]
    switch record.position {
    case .line(let n): members.append(JSONObject.Member(key: "line", value: .number(JSONNumber(n))))
    case .entry(let n): members.append(JSONObject.Member(key: "entry", value: .number(JSONNumber(n))))
    }
    members += [
      JSONObject.Member(key: "direction", value: record.direction.map { .string($0.rawValue) } ?? .null),
      JSONObject.Member(key: "type", value: record.messageType.map { .string($0) } ?? .null),
      JSONObject.Member(key: "severity", value: .string(f.severity.rawValue)),
      JSONObject.Member(key: "code", value: .string(f.code.rawValue)),
      JSONObject.Member(key: "pointer", value: .string(f.pointer)),
      JSONObject.Member(key: "message", value: .string(f.message)),
    ]
    if let offset = f.offset { members.append(JSONObject.Member(key: "offset", value: .number(JSONNumber(offset)))) }
    write(.object(JSONObject(members)))
  }

  func finish(_ summary: ValidationSummary, sources: [String]) {
    var object = summary.json.objectValue ?? JSONObject()
    object.members.insert(
      JSONObject.Member(key: "sources", value: .array(sources.map { .string($0) })), at: 0)
    write(["summary": .object(object)])
  }

  private func write(_ value: JSONValue) {
    var writer = JSONWriter()
    writer.write(value)
    var bytes = writer.bytes
    bytes.append(0x0A)
    out.write(bytes)
  }
}
