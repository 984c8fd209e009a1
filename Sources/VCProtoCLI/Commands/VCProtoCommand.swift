import VCProtoCapture

/// The `vcproto` command line: parses the subcommand and its arguments and runs it.
///
/// ```swift
/// exit(VCProtoCommand.main(Array(CommandLine.arguments.dropFirst()), .standard))
/// ```
///
/// The maintainers' commands are a program of their own, `vcproto-dev`
/// (``developerMain(_:_:tools:)``), so that the shipped `vcproto` does not link the code generator.
public enum VCProtoCommand {
  /// The shipped program's name.
  static let program = "vcproto"
  /// The maintainers' program's name.
  static let developerProgram = "vcproto-dev"

  /// Every subcommand of `vcproto`, in the order help lists them: the one place a subcommand is
  /// registered.
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
  ]

  /// Every subcommand of `vcproto-dev`, in the order help lists them.
  static func developerTable(_ tools: DeveloperTools) -> [RegisteredCommand] {
    [
      RegisteredCommand(GenerateModelCommand.spec) { args, io in GenerateModelCommand.run(args, io: io, tools: tools) },
      RegisteredCommand(SchemaCommand.spec) { args, io throws(UsageError) in
        try SchemaCommand.run(args, io: io, tools: tools)
      },
      RegisteredCommand(GenerateSpecCommand.spec) { args, io in GenerateSpecCommand.run(args, io: io, tools: tools) },
      RegisteredCommand(HMACCommand.spec) { args, io in HMACCommand.run(args, io: io) },
    ]
  }

  /// The declarations of every `vcproto` subcommand, in table order.
  static var commands: [CommandSpec] { table.map(\.spec) }

  /// The top-level help of `vcproto`.
  static var help: String {
    help(program: program, overview: "vcproto checks and decodes voice-code WebSocket protocol traffic.", table)
  }

  /// The top-level help of a program whose subcommands are `table`.
  static func help(program: String, overview: String, _ table: [RegisteredCommand]) -> String {
    var out = """
      OVERVIEW: \(overview)

      USAGE: \(program) <subcommand> [<options>] [<arguments>]

      SUBCOMMANDS:

      """
    for command in table.map(\.spec) where !command.hidden {
      out += CommandSpec.row(command.name, command.abstract)
    }
    out += CommandSpec.row("help", "Show help for a subcommand.")
    out += "\nOPTIONS:\n"
    out += CommandSpec.row("-V, --version", "Print vcproto's version.")
    out += CommandSpec.row("-h, --help", "Show this help.")
    out += "\n  See '\(program) help <subcommand>' or '\(program) <subcommand> --help' for details;\n"
    out += "  the full reference is \(CommandSpec.reference).\n"
    return out
  }

  /// Runs `vcproto` with `arguments` (without the program name); returns the exit status:
  /// 0 success, 1 findings or failures, 2 usage error or unreadable input.
  public static func main(
    _ arguments: [String], _ io: CommandIO, envelopeOpener: EnvelopeOpener = .standard
  ) -> Int32 {
    run(arguments, io, program: program, help: help, table: table, envelopeOpener: envelopeOpener)
  }

  /// Runs `vcproto-dev`, the maintainers' commands, with `arguments` (without the program name) and
  /// the code generator's `tools`; returns the exit status: 0 success, 2 usage error or a file that
  /// cannot be read or written.
  public static func developerMain(_ arguments: [String], _ io: CommandIO, tools: DeveloperTools) -> Int32 {
    let table = developerTable(tools)
    let help = help(
      program: developerProgram, overview: "vcproto-dev regenerates vcproto's derived files (for maintainers).", table)
    return run(arguments, io, program: developerProgram, help: help, table: table, envelopeOpener: .standard)
  }

  static func run(
    _ arguments: [String], _ io: CommandIO, program: String, help: String, table: [RegisteredCommand],
    envelopeOpener: EnvelopeOpener
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
      io.standardOutput.write("\(program) \(version)\n")
      return 0
    }
    if first == "help" {
      guard arguments.count > 1 else {
        io.standardOutput.write(help)
        return 0
      }
      guard let command = table.first(where: { $0.spec.name == arguments[1] })?.spec else {
        return usageError(UsageError("unknown subcommand '\(arguments[1])'"), program: program, command: nil, io: io)
      }
      io.standardOutput.write(command.help)
      return 0
    }
    guard let entry = table.first(where: { $0.spec.name == first }) else {
      let message = first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown subcommand '\(first)'"
      return usageError(UsageError(message), program: program, command: nil, io: io)
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
      return usageError(error, program: program, command: command, io: io)
    }
  }

  /// `vcproto validate: unknown option '--x'` and a usage hint; exit 2.
  static func usageError(_ error: UsageError, program: String, command: CommandSpec?, io: CommandIO) -> Int32 {
    let prefix = command.map { "\(program) \($0.name)" } ?? program
    io.standardError.line("\(prefix): \(error.message)")
    if let command {
      io.standardError.line("usage: \(command.usage)  (see '\(program) \(command.name) --help')")
    } else {
      io.standardError.line("usage: \(program) <subcommand> [<options>]  (see '\(program) --help')")
    }
    return 2
  }
}
