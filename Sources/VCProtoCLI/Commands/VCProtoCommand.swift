/// The `vcproto` command line: parses the subcommand and its arguments and runs it.
///
/// ```swift
/// exit(VCProtoCommand.main(Array(CommandLine.arguments.dropFirst()), .standard))
/// ```
public enum VCProtoCommand {
  /// Every subcommand, in the order help lists them: the one place a subcommand is registered.
  static let table: [RegisteredCommand] = [
    RegisteredCommand(ValidateCommand.spec) { args, io, opener throws(UsageError) in
      try ValidateCommand.run(args, io: io, opener: opener)
    },
    RegisteredCommand(DecodeCommand.spec) { args, io, opener throws(UsageError) in
      try DecodeCommand.run(args, io: io, opener: opener)
    },
    RegisteredCommand(VectorsCommand.spec) { args, io in VectorsCommand.run(args, io: io) },
    RegisteredCommand(ConformanceCommand.spec) { args, io throws(UsageError) in
      try ConformanceCommand.run(args, io: io)
    },
    RegisteredCommand(CatalogCommand.spec) { args, io throws(UsageError) in try CatalogCommand.run(args, io: io) },
    RegisteredCommand(SchemaCommand.spec) { args, io throws(UsageError) in try SchemaCommand.run(args, io: io) },
    RegisteredCommand(GenerateModelCommand.spec) { args, io in GenerateModelCommand.run(args, io: io) },
    RegisteredCommand(GenerateSpecCommand.spec) { args, io in GenerateSpecCommand.run(args, io: io) },
    RegisteredCommand(HMACCommand.spec) { args, io in HMACCommand.run(args, io: io) },
  ]

  /// The declarations of every subcommand, in table order.
  static var commands: [CommandSpec] { table.map(\.spec) }

  /// The top-level help.
  static var help: String {
    var out = """
      OVERVIEW: vcproto checks and decodes voice-code WebSocket protocol traffic.

      USAGE: vcproto <subcommand> [<options>] [<arguments>]

      SUBCOMMANDS:

      """
    for command in commands where !command.hidden { out += CommandSpec.row(command.name, command.abstract) }
    out += CommandSpec.row("help", "Show help for a subcommand.")
    out += "\nOPTIONS:\n"
    out += CommandSpec.row("-V, --version", "Print vcproto's version.")
    out += CommandSpec.row("-h, --help", "Show this help.")
    out += "\n  See 'vcproto help <subcommand>' or 'vcproto <subcommand> --help' for details;\n"
    out += "  the full reference is \(CommandSpec.reference).\n"
    return out
  }

  /// Runs `vcproto` with `arguments` (without the program name); returns the exit status:
  /// 0 success, 1 findings or failures, 2 usage error or unreadable input.
  public static func main(
    _ arguments: [String], _ io: CommandIO, envelopeOpener: EnvelopeOpener = .standard
  ) -> Int32 {
    guard let first = arguments.first else {
      io.standardError.write(help)
      return 2
    }
    if first == "--help" || first == "-h" {
      io.standardOutput.write(help)
      return 0
    }
    if first == "--version" || first == "-V" {
      io.standardOutput.write(versionLine)
      return 0
    }
    if first == "help" {
      guard arguments.count > 1 else {
        io.standardOutput.write(help)
        return 0
      }
      guard let command = commands.first(where: { $0.name == arguments[1] }) else {
        return usageError(UsageError("unknown subcommand '\(arguments[1])'"), command: nil, io: io)
      }
      io.standardOutput.write(command.help)
      return 0
    }
    guard let entry = table.first(where: { $0.spec.name == first }) else {
      let message = first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown subcommand '\(first)'"
      return usageError(UsageError(message), command: nil, io: io)
    }
    let command = entry.spec
    do throws(UsageError) {
      let args = try ArgumentParser.parse(Array(arguments.dropFirst()), for: command)
      if args.wantsHelp {
        io.standardOutput.write(command.help)
        return 0
      }
      return try entry.run(args, io, envelopeOpener)
    } catch {
      return usageError(error, command: command, io: io)
    }
  }

  /// `vcproto validate: unknown option '--x'` and a usage hint; exit 2.
  static func usageError(_ error: UsageError, command: CommandSpec?, io: CommandIO) -> Int32 {
    let prefix = command.map { "vcproto \($0.name)" } ?? "vcproto"
    io.standardError.line("\(prefix): \(error.message)")
    if let command {
      io.standardError.line("usage: \(command.usage)  (see 'vcproto \(command.name) --help')")
    } else {
      io.standardError.line("usage: vcproto <subcommand> [<options>]  (see 'vcproto --help')")
    }
    return 2
  }
}
