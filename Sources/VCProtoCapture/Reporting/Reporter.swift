import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Writes findings as they are found and the summary at the end.
protocol Reporter {
  func report(_ record: FindingRecord)
  func finish(_ summary: ValidationSummary, sources: [String])
}

/// `file:line: type /pointer: severity: message [code]`, then a summary per type and per code.
/// Everything that came from the input is escaped and cut (``TerminalText``); the whole-frame
/// pointer is shown as `(root)`.
struct TextReporter: Reporter {
  let out: OutputSink
  let color: Bool

  private func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func report(_ record: FindingRecord) {
    let f = record.finding
    let severity = f.severity == .error ? paint("error", "31;1") : paint("warning", "33;1")
    let type = record.messageType.map(TerminalText.name) ?? "-"
    let message = TerminalText.message(f.message)
    out.line(
      "\(paint(TerminalText.escaped(record.location), "1")): \(type) \(TerminalText.pointer(f.pointer)): \(severity): "
        + "\(message) " + paint("[\(TerminalText.escaped(f.code.rawValue))]", "2"))
  }

  func finish(_ summary: ValidationSummary, sources: [String]) {
    func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    func counts(_ c: ValidationSummary.TypeCounts) -> String {
      var text = plural(c.frames, "frame")
      if c.errors + c.warnings > 0 { text += ", \(plural(c.errors, "error")), \(plural(c.warnings, "warning"))" }
      return text
    }
    let verdict = paint(summary.verdict, summary.verdict == "OK" ? "32;1" : "31;1")
    let names = sources.map { TerminalText.escaped($0) }
    var line =
      "\(verdict) \(names.joined(separator: ", ")): \(plural(summary.frames, "frame")), \(summary.valid) valid, "
      + "\(summary.invalid) invalid; \(plural(summary.errors, "error")), \(plural(summary.warnings, "warning"))"
    if !summary.unreadable.isEmpty {
      line +=
        "; \(summary.unreadable.count) unreadable: "
        + summary.unreadable.map { TerminalText.escaped($0) }.joined(separator: ", ")
    }
    if summary.printed.notShown > 0, let limit = summary.printed.limit {
      line += "; \(plural(summary.printed.notShown, "finding")) not shown (--max-findings \(limit))"
    }
    if let versions = VersionUse.summary(summary.versions) { line += "; " + versions }
    out.line(line)
    if !summary.types.isEmpty || summary.otherTypes.counts.frames > 0 {
      out.line("by type:")
      // Names are escaped and cut to TerminalText.maxNameLength, so the padding is bounded too.
      let rows = summary.types.keys.sorted().map { (TerminalText.name($0), summary.types[$0]!) }
      let width = max(20, rows.map(\.0.count).max() ?? 0)
      for (name, c) in rows {
        out.line("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + " " + counts(c))
      }
      let other = summary.otherTypes
      if other.counts.frames > 0 {
        let name =
          "(\(other.distinctText) other type\(other.distinct.count == 1 && !other.distinctOverflow ? "" : "s"))"
        out.line(
          "  " + name.padding(toLength: max(width, name.count), withPad: " ", startingAt: 0) + " "
            + counts(other.counts))
      }
    }
    if summary.codes.isEmpty {
      out.line("by code: none")
    } else {
      out.line("by code:")
      let rows = summary.codes.keys.sorted().map { (TerminalText.name($0), summary.codes[$0]!) }
      let width = max(20, rows.map(\.0.count).max() ?? 0)
      for (name, n) in rows {
        out.line("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + " \(n)")
      }
    }
  }
}

/// JSON Lines: one object per finding, then `{"summary": {...}}`.
///
/// Exact JSON, but bounded like the text output: `pointer` is exact (a locator must be; each name in
/// it was read from the capture, where it appears once per finding that names it), while `type` and
/// `message`, which may quote capture text, are cut at ``TerminalText/maxNameLength`` and
/// ``TerminalText/maxMessageLength`` characters, ending in `…` when something was left off.
struct JSONLinesReporter: Reporter {
  let out: OutputSink

  func report(_ record: FindingRecord) {
    let f = record.finding
    var members: [JSONObject.Member] = [JSONObject.Member(key: "source", value: .string(record.source))]
    switch record.position {
    case .line(let n): members.append(JSONObject.Member(key: "line", value: .number(JSONNumber(n))))
    case .entry(let n): members.append(JSONObject.Member(key: "entry", value: .number(JSONNumber(n))))
    }
    if let connection = record.connection {
      members.append(JSONObject.Member(key: "connection", value: .number(JSONNumber(connection))))
    }
    members += [
      JSONObject.Member(key: "direction", value: record.direction.map { .string($0.rawValue) } ?? .null),
      JSONObject.Member(
        key: "type",
        value: record.messageType.map { .string(TerminalText.cut($0, limit: TerminalText.maxNameLength)) }
          ?? .null),
      JSONObject.Member(key: "severity", value: .string(f.severity.rawValue)),
      JSONObject.Member(key: "code", value: .string(f.code.rawValue)),
      JSONObject.Member(key: "pointer", value: .string(f.pointer)),
      JSONObject.Member(
        key: "message", value: .string(TerminalText.cut(f.message, limit: TerminalText.maxMessageLength))),
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
    // Exact JSON, with the characters that could steer a terminal written as escapes.
    out.line(TerminalText.jsonSafe(value.jsonText))
  }
}
