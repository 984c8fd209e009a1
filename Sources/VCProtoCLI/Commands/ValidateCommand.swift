import Foundation
import VCProtoCapture
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto validate`: checks captured traffic line by line and reports what breaks the protocol.
enum ValidateCommand {
  static let spec = CommandSpec(
    name: "validate",
    abstract: "Check captured traffic (JSON Lines, HAR, or one frame) against the protocol.",
    example: "vcproto validate --strict Samples/conversation-0.5.0.jsonl",
    exitStatus: [
      ExitStatus(0, "no errors (warnings allowed)"), ExitStatus(1, "at least one error"),
      ExitStatus(2, "usage error or unreadable input"),
    ],
    options: [
      .choice("input", of: CaptureFormat.self, help: "Input format (default: detected)."),
      DirectionOption.spec(help: "Every frame's direction"),
      ProtocolOption.spec(help: "Version without a handshake (default 0.5.0)."),
      FormatOption.spec,
      .flag("strict", help: "Treat warnings as errors."),
      .option("max-findings", value: "count", help: "Findings printed at most (default 1000; 'unlimited')."),
      .option("max-line-length", value: "bytes", help: "Longest JSON Lines line (default 32 MiB)."),
      .option("max-har-message-size", value: "bytes", help: "Largest HAR message (default 64 MiB)."),
      .option("jobs", value: "count", help: "Threads checking frames at once (default: one per core)."),
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
    let validator = CaptureValidator(
      format: FormatOption.value(args) == .json ? .json : .text, output: io.standardOutput, color: io.usesColor,
      strict: args.has("strict"), direction: DirectionOption.value(args),
      protocolVersion: args[ProtocolOption.name] != nil ? version : nil,
      maxFindings: try args["max-findings"].map(FindingCap.limit(parsing:)) ?? FindingCap.defaultLimit,
      limits: limits, opener: opener, threads: try jobs(args))
    for path in args.positionals {
      let name = path == "-" ? "<stdin>" : path
      let source: ByteSource
      switch io.input(path) {
      case .success(let opened): source = opened
      case .failure(let unreadable):
        io.standardError.line("vcproto validate: cannot read '\(TerminalText.escaped(path))': \(unreadable.reason)")
        validator.unreadable(name: name)
        continue
      }
      let progress = ProgressIndicator(
        sink: io.standardError, terminal: io.standardErrorIsTerminal, name: name, total: source.knownSize)
      do {
        defer { progress.finish() }
        try validator.validate(source, name: name, format: args.choice("input", as: CaptureFormat.self)) {
          progress.update(bytesRead: $0, frames: $1)
        }
      } catch {
        io.standardError.line(
          "vcproto validate: error reading '\(TerminalText.escaped(path))': \(error.localizedDescription)")
      }
    }
    return validator.finish()
  }

  /// `--jobs`: a count from 1 to 64; without it, one per active processor (at most 64).
  private static func jobs(_ args: ParsedArguments) throws(UsageError) -> Int {
    guard let text = args["jobs"] else { return min(64, max(1, ProcessInfo.processInfo.activeProcessorCount)) }
    guard let n = Int(text), (1...64).contains(n) else {
      throw UsageError("invalid value '\(text)' for '--jobs' (expected a number of threads from 1 to 64)")
    }
    return n
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
