import Foundation
import VCProto

/// `vcproto validate`: checks captured traffic line by line and reports what breaks the protocol.
enum ValidateCommand {
  static let spec = CommandSpec(
    name: "validate",
    abstract: "Check captured traffic (JSON Lines, HAR, or one frame) against the protocol.",
    discussion: """
      Each finding is printed as `file:line: type /pointer: severity: message [code]` (`file#N` for
      frame N of a HAR or single-frame input, counted from 0: the first frame is `file#0`; `(root)`
      for the whole frame), followed by a summary per type and per code (every catalog type, at most
      64 others, then one "(N other types)" row). Text output shows control, bidi and format characters from the
      capture as \\u{XX} and cuts names at 64 characters, pointers at 160, messages at 400. The
      input is streamed and every table is bounded, so memory stays flat whatever the capture's
      size or content. Secrets are never printed.
      Direction comes from the capture (send = client_to_server), else from the message type.
      Each connection (each hello starts one) is checked against the version its handshake gives:
      hello.version is the server's ceiling ("0.2.0" and "0.3.0" servers negotiate nothing),
      connected.negotiated_protocol_version or the server's unsupported_protocol_version refusal
      decides; until then the connect's protocol_version and the floor (--protocol, else 0.4.0)
      predict it. A handshake the real server could not produce is a negotiation_mismatch.
      --protocol applies to captures without a handshake.
      JSON Lines records with a "connection" number (vcproto-tap's captures) are checked as one
      conversation per connection however they interleave (at most 4096 followed at once), and
      their findings are located as `file:line (connection N)` (JSON: "connection").
      Conversation checks run only when the capture contains the handshake; they are the connection
      engines' rules (STANDARDS.md section 15, rule 10): authentication order, negotiated extensions
      and capabilities, message_ack ids, continuations, session data only to subscribers (0.5.0),
      answers with no request, heartbeat gaps.
      At most --max-findings findings are printed (default 1000, over all captures); later ones are
      still counted in the summary and the exit status, and the summary line ends with
      "N findings not shown" (JSON: "findings_not_shown", with "max_findings"). Each frame reports
      at most 100 findings before that, the last saying how many more it had [findings_suppressed].
      JSON output is exact except that "type" and "message", which may quote the capture, are cut
      like the text output's (64 and 400 characters, ending in …); "pointer" is never cut.
      The summary line starts with OK (no errors), FAIL (errors) or ERROR (a capture could not be
      read; it is named, and counted as "unreadable" in the JSON summary).
      Colour is used only when standard output is a terminal and NO_COLOR is unset or empty; any
      non-empty NO_COLOR (even "0" or "false") turns it off (https://no-color.org).
      Exit status: 0 no errors (warnings allowed), 1 at least one error, 2 usage or unreadable input.
      """,
    options: [
      .option(
        "input", value: "jsonl|har|frame", allowed: ["jsonl", "har", "frame"],
        help: "Input format (default: detected)."),
      .option(
        "direction", value: "client_to_server|server_to_client",
        allowed: ["client_to_server", "server_to_client", "send", "receive"],
        help: "Direction of every frame (overrides the capture); send = client_to_server, receive = server_to_client."),
      .option(
        "protocol", value: "version",
        help: "Version of captures without a handshake (default 0.2.0); for a 0.4.0/0.5.0 hello, the server's floor"
          + " when it is one (default 0.4.0)."),
      .option("format", value: "text|json", allowed: ["text", "json"], help: "Output format (default text)."),
      .flag("strict", help: "Treat warnings as errors."),
      .option(
        "max-findings", value: "count",
        help: "Most findings printed for the whole run; later ones are only counted (default 1000; 0 prints"
          + " only the summary; 'unlimited')."),
      .option(
        "max-line-length", value: "bytes",
        help: "Longest JSON Lines line; longer ones are skipped [line_too_long] (default 33554432, 32 MiB)."),
      .option(
        "max-har-message-size", value: "bytes",
        help: "Largest HAR WebSocket message; larger ones are dropped [frame_too_large] (default 67108864, 64 MiB)."),
    ],
    positionals: [
      PositionalSpec(
        name: "capture", help: "Capture files; `-` reads standard input.", optional: false, repeating: true)
    ])

  static func run(_ args: ParsedArguments, io: CommandIO, opener: EnvelopeOpener) throws(UsageError) -> Int32 {
    let version = try args.protocolVersion()
    var limits = CaptureLimits.default
    if let n = try byteCount(args, "max-line-length") { limits.maxLineBytes = n }
    if let n = try byteCount(args, "max-har-message-size") { limits.maxHARMessageBytes = n }
    let checker = FrameChecker(
      directionOverride: args["direction"].flatMap(CaptureRecord.direction), strict: args.has("strict"),
      opener: opener)
    let validation = CaptureValidation(
      checker: checker, defaultVersion: version, explicitVersion: args["protocol"] != nil)
    let reporter: Reporter =
      args["format"] == "json"
      ? JSONLinesReporter(out: io.standardOutput) : TextReporter(out: io.standardOutput, color: io.usesColor)
    var summary = ValidationSummary()
    summary.printed = FindingCap(
      limit: try args["max-findings"].map(FindingCap.limit(parsing:)) ?? FindingCap.defaultLimit)
    var names: [String] = []
    for path in args.positionals {
      let name = path == "-" ? "<stdin>" : path
      names.append(name)
      let source: ByteSource
      switch io.input(path) {
      case .success(let opened): source = opened
      case .failure(let unreadable):
        io.standardError.line("vcproto validate: cannot read '\(TerminalText.escaped(path))': \(unreadable.reason)")
        summary.unreadable.append(name)
        continue
      }
      do {
        let format: CaptureFormat
        if let forced = args["input"].flatMap(CaptureFormat.init(rawValue:)) {
          format = forced
        } else {
          let prefix = try source.read(upTo: 64 * 1024)
          source.unread(prefix)
          format = CaptureFormat.detect(path: path == "-" ? nil : path, prefix: prefix)
        }
        let progress = ProgressIndicator(
          sink: io.standardError, terminal: io.standardErrorIsTerminal, name: name, total: source.knownSize)
        defer { progress.finish() }
        try validation.run(
          format.reader(for: source, limits: limits),
          progress: { progress.update(bytesRead: $0, frames: $1) }
        ) { outcome in
          summary.add(outcome)
          for finding in outcome.findings where summary.printed.admit() {
            reporter.report(
              FindingRecord(
                source: name, position: outcome.position, direction: outcome.direction,
                messageType: outcome.messageType, finding: finding,
                connection: outcome.namesConnection ? outcome.connection : nil))
          }
        }
      } catch {
        io.standardError.line(
          "vcproto validate: error reading '\(TerminalText.escaped(path))': \(error.localizedDescription)")
        summary.unreadable.append(name)
      }
    }
    reporter.finish(summary, sources: names)
    if !summary.unreadable.isEmpty { return 2 }
    return summary.errors > 0 ? 1 : 0
  }

  /// A positive byte count given as `--name <bytes>`, or `nil` when the option is absent.
  private static func byteCount(_ args: ParsedArguments, _ name: String) throws(UsageError) -> Int? {
    guard let text = args[name] else { return nil }
    guard let n = Int(text), n > 0 else {
      throw UsageError("invalid value '\(text)' for '--\(name)' (expected a positive number of bytes)")
    }
    return n
  }
}
