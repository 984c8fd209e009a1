import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto validate` from code: checks whole captures and prints every finding and the summary as
/// the command does. The command is this type behind its options, so the output, the summary and the
/// exit status are the command's for the same captures and options.
///
/// Each ``validate(_:name:format:)`` reads one capture to its end, streaming (memory does not grow
/// with the capture, see ``CaptureLimits``): each frame is checked on its own against the protocol
/// version its connection's handshake gives (else the version given here, else
/// ``defaultProtocolVersion``), then against the conversation's rules, and its findings are printed
/// at once. ``finish()`` prints the summary of every capture validated and returns the exit status.
///
/// ```swift
/// let output = OutputSink()
/// let validator = CaptureValidator(format: .json, output: output)
/// try validator.validate(ByteSource(bytes: capture), name: "capture.jsonl")
/// let status = validator.finish()  // 0: no error, 1: an error, 2: a capture was unreadable
/// ```
///
/// Thread-safe: the summary and the output are shared under a lock (captures validated at once
/// interleave their finding lines).
public final class CaptureValidator: Sendable {
  /// The output format (`vcproto validate --format`).
  public enum Format: Sendable {
    /// One line per finding, `source:line: type /pointer: severity: message [code]`, then a summary
    /// per type and per code; text from the capture is escaped so it cannot steer a terminal.
    case text
    /// One JSON object per finding, then `{"summary": {...}}` (docs/CLI.md describes the members).
    case json
  }

  /// The default of `maxFindings` (and of `--max-findings`).
  public static let defaultMaxFindings = 1_000

  /// The version a connection without a handshake is checked against when none is given: 0.5.0.
  public static let defaultProtocolVersion = ProtocolVersion.v0_5_0

  /// How each frame is checked on its own.
  package let checker: FrameChecker
  /// The version given for connections without a handshake (`--protocol`), if any.
  let protocolVersion: ProtocolVersion?
  let limits: CaptureLimits
  /// Threads checking a capture's frames at once.
  let threads: Int
  let text: TextReporter?
  let json: JSONLinesReporter?
  private let state: Locked<State>

  private struct State {
    var summary = ValidationSummary()
    var sources: [String] = []
  }

  /// Creates a validator that prints on `output`.
  ///
  /// - Parameters:
  ///   - format: text lines or JSON objects.
  ///   - output: where findings and the summary go.
  ///   - color: text output in ANSI colours (only for a terminal).
  ///   - strict: warnings count as errors (`--strict`).
  ///   - direction: every frame's direction, whatever the capture says (`--direction`).
  ///   - protocolVersion: the version of connections without a handshake, and the floor assumed for a
  ///     negotiating server (`--protocol`); `nil` checks them against ``defaultProtocolVersion``.
  ///   - maxFindings: most findings printed over the whole run, `nil` for no limit
  ///     (`--max-findings`); findings past it are still counted in the summary and the exit status.
  ///   - limits: bounds on what the readers hold in memory.
  ///   - opener: how compression envelopes are opened.
  ///   - threads: threads checking a capture's frames at once (`--jobs`; `vcproto validate` uses one
  ///     per core): the findings, their order and the summary are the same for any number, memory
  ///     grows by a window of at most 512 frames and 1 MiB (or one larger frame), not with the capture.
  public init(
    format: Format = .text, output: OutputSink, color: Bool = false, strict: Bool = false,
    direction: MessageDirection? = nil, protocolVersion: ProtocolVersion? = nil,
    maxFindings: Int? = CaptureValidator.defaultMaxFindings, limits: CaptureLimits = .default,
    opener: EnvelopeOpener = .standard, threads: Int = 1
  ) {
    checker = FrameChecker(directionOverride: direction, strict: strict, opener: opener)
    self.protocolVersion = protocolVersion
    self.limits = limits
    self.threads = max(1, threads)
    text = format == .text ? TextReporter(out: output, color: color) : nil
    json = format == .json ? JSONLinesReporter(out: output) : nil
    var state = State()
    state.summary.printed = FindingCap(limit: maxFindings)
    self.state = Locked(state)
  }

  /// Reads the capture `source` to its end, checks every frame and prints the findings.
  ///
  /// `name` is how findings and the summary name the capture (a path, or `<stdin>`); a name ending in
  /// `.har`, `.jsonl`, `.ndjson` or `.json` helps detect the format when `format` is `nil`, as do the
  /// capture's first bytes. A read error (rethrown) counts the capture as unreadable: ``finish()``
  /// then returns 2.
  public func validate(_ source: ByteSource, name: String, format: CaptureFormat? = nil) throws {
    try validate(source, name: name, format: format) { _, _ in }
  }

  /// ``validate(_:name:format:)`` reporting progress: `progress(bytesRead, frames)` after each item.
  package func validate(
    _ source: ByteSource, name: String, format: CaptureFormat?, progress: (Int, Int) -> Void
  ) throws {
    state.withLock { $0.sources.append(name) }
    do {
      let format = try format ?? Self.detect(source, name: name)
      var validation = CaptureValidation(
        checker: checker, defaultVersion: protocolVersion ?? Self.defaultProtocolVersion,
        explicitVersion: protocolVersion != nil)
      validation.workers = threads
      try validation.run(format.reader(for: source, limits: limits), progress: progress) { outcome in
        report(outcome, source: name)
      }
    } catch {
      state.withLock { $0.summary.unreadable.append(name) }
      throw error
    }
  }

  /// Counts a capture that could not be opened (a missing file, a directory): ``finish()`` names it
  /// and returns 2.
  public func unreadable(name: String) {
    state.withLock {
      $0.sources.append(name)
      $0.summary.unreadable.append(name)
    }
  }

  /// Prints the summary of everything validated so far; returns `vcproto validate`'s exit status
  /// for it: 2 when a capture was unreadable, else 1 when there was an error, else 0.
  @discardableResult
  public func finish() -> Int32 {
    let (summary, sources) = state.withLock { ($0.summary, $0.sources) }
    text?.finish(summary, sources: sources)
    json?.finish(summary, sources: sources)
    if !summary.unreadable.isEmpty { return 2 }
    return summary.errors > 0 ? 1 : 0
  }

  /// Counts one outcome and prints its findings (up to the cap) as coming from `source`.
  package func report(_ outcome: FrameOutcome, source: String) {
    state.withLock { state in
      state.summary.add(outcome)
      for finding in outcome.findings where state.summary.printed.admit() {
        let record = FindingRecord(
          source: source, position: outcome.position, direction: outcome.direction,
          messageType: outcome.messageType, finding: finding,
          connection: outcome.namesConnection ? outcome.connection : nil)
        text?.report(record)
        json?.report(record)
      }
    }
  }

  /// Names a source in the summary without reading it (``LiveValidation``'s capture).
  package func add(source: String) {
    state.withLock { $0.sources.append(source) }
  }

  /// The format of `source` from its name and first 64 KiB (handed back to it).
  private static func detect(_ source: ByteSource, name: String) throws -> CaptureFormat {
    let prefix = try source.read(upTo: 64 * 1024)
    source.unread(prefix)
    return CaptureFormat.detect(path: name, prefix: prefix)
  }
}
