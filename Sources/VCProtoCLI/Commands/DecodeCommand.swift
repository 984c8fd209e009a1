import Foundation
import VCProtoCapture
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto decode`: one frame (or envelope) to pretty JSON through the typed model.
enum DecodeCommand {
  static let spec = CommandSpec(
    name: "decode",
    abstract: "Decode one frame or envelope and print it as pretty JSON.",
    example: #"echo '{"type":"ping"}' | vcproto decode"#,
    exitStatus: [
      ExitStatus(0, "decoded and printed"), ExitStatus(1, "the frame does not decode (findings on standard error)"),
      ExitStatus(2, "usage error or unreadable input"),
    ],
    options: [
      DirectionOption.spec(help: "The frame's direction"),
      ProtocolOption.spec(help: "Protocol version (default 0.5.0)."),
      .flag("strict", help: "Treat warnings as errors."),
      .flag("show-secrets", help: "Print secret values instead of «redacted»."),
    ],
    positionals: [
      PositionalSpec(
        name: "frame", help: "The frame's file; `-` or nothing: standard input.", optional: true)
    ])

  static func run(_ args: ParsedArguments, io: CommandIO, opener: EnvelopeOpener) throws(UsageError) -> Int32 {
    let version = try args.protocolVersion()
    let path = args.positionals.first ?? "-"
    let source: ByteSource
    switch io.input(path) {
    case .success(let opened): source = opened
    case .failure(let unreadable):
      io.standardError.line("vcproto decode: cannot read '\(TerminalText.escaped(path))': \(unreadable.reason)")
      return 2
    }
    let frame: CapturedFrame?
    do {
      frame = try SingleFrameReader(source: source).next()
    } catch {
      io.standardError.line(
        "vcproto decode: error reading '\(TerminalText.escaped(path))': \(error.localizedDescription)")
      return 2
    }
    guard let frame else { return 2 }
    let direction = DirectionOption.value(args)
    let checker = FrameChecker(directionOverride: direction, strict: args.has("strict"), opener: opener)
    let outcome = checker.check(frame, protocolVersion: version)
    let name = path == "-" ? "<stdin>" : path
    for finding in outcome.findings {
      // Same form and escaping as `validate`'s text output: nothing from the frame steers the terminal.
      io.standardError.line(
        "\(TerminalText.escaped(name)): \(outcome.messageType.map(TerminalText.name) ?? "-") "
          + "\(TerminalText.pointer(finding.pointer)): \(finding.severity.rawValue): "
          + "\(TerminalText.message(finding.message)) [\(finding.code.rawValue)]")
    }
    guard outcome.isValid, let message = outcome.message else { return 1 }
    let options = ValidationOptions(direction: outcome.direction, version: version, strict: args.has("strict"))
    let canonical: JSONValue
    do {
      let decoded = try MessageDecoder(options: options).decode(JSONValue.object(message).jsonText)
      canonical = (try? JSONReader().parse(MessageEncoder().encode(decoded))) ?? .object(message)
    } catch {
      for finding in error.findings {
        io.standardError.line(
          "\(TerminalText.escaped(name)): \(finding.severity.rawValue) \(finding.code.rawValue) "
            + "\(TerminalText.pointer(finding.pointer)): "
            + TerminalText.message(finding.message)
            + " [\(finding.code.rawValue)]")
      }
      return 1
    }
    let shown = args.has("show-secrets") ? canonical : Redaction.redacted(canonical)
    PrettyPrinter.write(shown) { io.standardOutput.write(TerminalText.jsonSafe($0)) }
    io.standardOutput.line()
    return 0
  }
}
