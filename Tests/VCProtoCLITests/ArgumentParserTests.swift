import Testing

@testable import VCProtoCLI

@Suite struct ArgumentParserTests {
  let spec = CommandSpec(
    name: "demo", abstract: "A demo.", example: "vcproto demo f", exitStatus: [.usage],
    options: [
      .option("format", value: "text|json", allowed: ["text", "json"], help: "Format."),
      .option("output", short: "o", value: "dir", help: "Output."),
      .flag("strict", help: "Strict."),
    ],
    positionals: [PositionalSpec(name: "file", help: "Files.", optional: false, repeating: true)])

  func parse(_ args: [String]) throws(UsageError) -> ParsedArguments {
    try ArgumentParser.parse(args, for: spec)
  }

  @Test func separateAndInlineValues() throws {
    let a = try parse(["--format", "json", "a", "--output=out", "b"])
    #expect(a["format"] == "json")
    #expect(a["output"] == "out")
    #expect(a.positionals == ["a", "b"])
    let b = try parse(["-o", "x", "-oy", "f"])
    #expect(b["output"] == "y")
  }

  @Test func flagsAndDashes() throws {
    let a = try parse(["--strict", "--", "--format", "-", "-x"])
    #expect(a.has("strict"))
    #expect(a["format"] == nil)
    #expect(a.positionals == ["--format", "-", "-x"])
    #expect(try parse(["-"]).positionals == ["-"])
    #expect(try parse(["--output", "-", "f"])["output"] == "-")
  }

  @Test func lastOccurrenceWins() throws {
    #expect(try parse(["--format=text", "--format", "json", "f"])["format"] == "json")
  }

  @Test func helpSkipsPositionalChecks() throws {
    #expect(try parse(["--help"]).wantsHelp)
    #expect(try parse(["-h"]).wantsHelp)
  }

  @Test func errorsNameTheProblem() {
    #expect(throws: UsageError("unknown option '--fromat' (did you mean '--format'?)")) {
      try parse(["--fromat", "x", "f"])
    }
    #expect(throws: UsageError("unknown option '--zzzzzzzz'")) { try parse(["--zzzzzzzz", "f"]) }
    #expect(throws: UsageError("unknown option '-q'")) { try parse(["-q", "f"]) }
    #expect(throws: UsageError("option '--format' needs a value <text|json>")) { try parse(["f", "--format"]) }
    #expect(throws: UsageError("option '--output' needs a value <dir>")) { try parse(["--output", "--strict", "f"]) }
    #expect(throws: UsageError("invalid value 'xml' for '--format' (expected text or json)")) {
      try parse(["--format=xml", "f"])
    }
    #expect(throws: UsageError("option '--strict' does not take a value")) { try parse(["--strict=yes", "f"]) }
    #expect(throws: UsageError("missing argument <file>")) { try parse(["--strict"]) }
  }

  @Test func tooManyPositionals() {
    let single = CommandSpec(
      name: "one", abstract: "", example: "vcproto one", exitStatus: [.usage],
      positionals: [PositionalSpec(name: "dir", help: "", optional: true)])
    #expect(throws: UsageError("unexpected argument 'b'")) { try ArgumentParser.parse(["a", "b"], for: single) }
  }

  @Test func usageAndHelpText() {
    #expect(spec.usage == "vcproto demo [<options>] <file> ...")
    #expect(spec.help.contains("-o, --output <dir>"))
    #expect(spec.help.contains("-h, --help"))
  }

  @Test func commandLevelUsageErrorsExitTwo() {
    let unknown = runCommand(["frobnicate"])
    #expect(unknown.status == 2)
    #expect(unknown.err.contains("unknown subcommand 'frobnicate'"))
    #expect(unknown.err.contains("usage:"))
    let bad = runCommand(["validate", "--format", "xml", "f"])
    #expect(bad.status == 2)
    #expect(bad.err.hasPrefix("vcproto validate: invalid value 'xml' for '--format' (expected text or json)\n"))
    #expect(bad.err.contains("usage: vcproto validate"))
    #expect(bad.out.isEmpty)
    #expect(runCommand([]).status == 2)
    #expect(runCommand(["validate", "--protocol", "9.9.9", "f"]).status == 2)
  }

  @Test func helpEverywhere() {
    for command in ["validate", "decode", "vectors", "catalog"] {
      let r = runCommand([command, "--help"])
      #expect(r.status == 0)
      #expect(r.out.contains("USAGE: vcproto \(command)"))
      #expect(runCommand(["help", command]).out == r.out)
    }
    let top = runCommand(["--help"])
    #expect(top.status == 0)
    #expect(top.out.contains("validate"))
    #expect(!top.out.contains("generate-model"))
  }

  /// Every command shows every value its options accept in the option's help row: the formats and
  /// directions in the placeholder, `validate`'s and `decode`'s `send`/`receive` aliases in the text.
  @Test func helpShowsEveryAcceptedValue() {
    #expect(VCProtoCommand.commands.contains { $0.name == "catalog" })
    for spec in VCProtoCommand.commands {
      for option in spec.options where option.allowedValues != nil {
        let row = CommandSpec.row(option.synopsis, option.help)
        for value in option.allowedValues ?? [] {
          #expect(row.contains(value), "\(spec.name) --\(option.name): \(value) not in \(row)")
        }
      }
    }
    let validate = runCommand(["validate", "--help"]).out
    #expect(validate.contains("--input <jsonl|har|frame>"))
    #expect(validate.contains("--direction <direction>"))
    #expect(validate.contains(": client_to_server (send) or server_to_client (receive)."))
    let decode = runCommand(["decode", "--help"]).out
    #expect(decode.contains("--direction <direction>"))
    #expect(decode.contains(": client_to_server (send) or server_to_client (receive)."))
    let catalog = runCommand(["catalog", "--help"]).out
    #expect(catalog.contains("--format <text|json>"))
    #expect(catalog.contains("--direction <direction>"))
  }

  /// `catalog --direction` takes the values the help names, the aliases included (one declaration of
  /// `--direction` for every command); a word that is none of them is refused.
  @Test func catalogDirectionTakesTheValuesTheHelpNames() {
    let clientOnly = runCommand(["catalog", "--protocol", "0.2.0", "--direction", "client_to_server"])
    #expect(clientOnly.status == 0)
    #expect(clientOnly.out.contains("  client_to_server ("))
    #expect(!clientOnly.out.contains("server_to_client"))
    let serverOnly = runCommand(["catalog", "--protocol", "0.2.0", "--direction", "server_to_client"])
    #expect(serverOnly.status == 0)
    #expect(serverOnly.out.contains("  server_to_client ("))
    #expect(!serverOnly.out.contains("client_to_server"))
    #expect(runCommand(["catalog", "--protocol", "0.2.0", "--direction", "send"]).out == clientOnly.out)
    #expect(runCommand(["catalog", "--protocol", "0.2.0", "--direction", "receive"]).out == serverOnly.out)
    let other = runCommand(["catalog", "--direction", "sent"])
    #expect(other.status == 2)
    #expect(other.err.contains("invalid value 'sent' for '--direction'"), "\(other.err)")
  }

  /// Every command's `--help` is short (swift-argument-parser's layout: overview, usage, one
  /// example, arguments, options, then the exit statuses and where the long reference is); the long
  /// reference is docs/CLI.md.
  @Test func everyHelpIsShort() {
    #expect(VCProtoCommand.commands.count >= 5)
    for command in VCProtoCommand.commands {
      let help = runCommand([command.name, "--help"]).out
      #expect(help == command.help)
      let lines = help.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      #expect(lines.count <= 26, "\(command.name) --help has \(lines.count) lines")
      #expect(lines.allSatisfy { $0.count <= 120 }, "\(command.name) --help has a line over 120 characters")
      #expect(help.contains("\nEXAMPLE: "), "\(command.name)")
      #expect(
        command.example.hasPrefix("vcproto \(command.name)") || command.example.contains("| vcproto \(command.name)"),
        "\(command.name): \(command.example)")
      #expect(command.exitStatus.map(\.code).contains(2), "\(command.name) names no usage status")
      #expect(help.contains("\nEXIT STATUS:\n  0  "), "\(command.name)")
      #expect(help.hasSuffix("\nFull reference: docs/CLI.md#\(command.name)\n"), "\(command.name)")
    }
  }

  /// The examples run as shown (those that need no child process or output directory).
  @Test func examplesRunAsShown() {
    for name in ["validate", "catalog"] {
      let command = VCProtoCommand.commands.first { $0.name == name }!
      let arguments = command.example.split(separator: " ").dropFirst().map(String.init)
      let r = runCommand(arguments, directory: packageRoot.path)
      #expect(r.status == 0, "\(command.example): \(r.err)")
    }
    let decode = VCProtoCommand.commands.first { $0.name == "decode" }!
    #expect(decode.example == #"echo '{"type":"ping"}' | vcproto decode"#)
    #expect(runCommand(["decode"], stdin: #"{"type":"ping"}"#).status == 0)
  }

  /// docs/CLI.md has a section for every command listed in the help, naming each of its options and
  /// its exit statuses: the list comes from the declarations, so a new option without documentation
  /// fails here.
  @Test func referenceNamesEveryOption() throws {
    let reference = try String(contentsOf: packageRoot.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
    let sections = reference.components(separatedBy: "\n## ").dropFirst()
    #expect(reference.contains("`vcproto --version`"))
    for command in VCProtoCommand.commands where !command.hidden {
      let section = try #require(
        sections.first { $0.hasPrefix(command.name + "\n") }, "docs/CLI.md has no '## \(command.name)'")
      for option in command.options where !option.hidden {
        #expect(section.contains("`--\(option.name)"), "docs/CLI.md#\(command.name) does not name --\(option.name)")
        if let short = option.short {
          #expect(section.contains("`-\(short)`"), "docs/CLI.md#\(command.name) does not name -\(short)")
        }
      }
      for status in command.exitStatus {
        #expect(
          section.contains(" \(status.code) "), "docs/CLI.md#\(command.name) does not explain status \(status.code)")
      }
      #expect(reference.contains("(#\(command.name))"), "the command table does not link \(command.name)")
    }
  }

  /// `--direction` and `--format` are declared once: every command that takes one accepts the same
  /// words, with the same help (`--direction`: the same suffix), and each direction word names the
  /// direction it says.
  @Test func directionAndFormatAreDeclaredOnce() {
    let declared = VCProtoCommand.commands.compactMap { command in
      command.options.first { $0.name == "direction" }.map { (command.name, $0) }
    }
    #expect(declared.map(\.0).sorted() == ["catalog", "decode", "validate"])
    for (name, option) in declared {
      #expect(option.allowedValues == DirectionOption.words.map(\.word), "\(name)")
      #expect(option.valueName == "direction", "\(name)")
      #expect(option.help.hasSuffix(": client_to_server (send) or server_to_client (receive)."), "\(name)")
    }
    let formats = VCProtoCommand.commands.compactMap { command in
      command.options.first { $0.name == "format" }.map { (command.name, $0) }
    }
    #expect(formats.map(\.0).sorted() == ["catalog", "validate"])
    for (name, option) in formats {
      #expect(option.allowedValues == ["text", "json"] && option.valueName == "text|json", "\(name)")
      #expect(option.help == FormatOption.spec.help, "\(name)")
    }
    #expect(
      DirectionOption.words.map { "\($0.word)=\($0.direction.rawValue)" } == [
        "client_to_server=client_to_server", "server_to_client=server_to_client", "send=client_to_server",
        "receive=server_to_client",
      ])
  }

  /// The aliases the help names do what it says, in `validate` and `decode`: `receive` makes a
  /// client's ping travel the wrong way, `send` the right way.
  @Test func directionAliasesAreTheDirectionsTheHelpNames() {
    let ping = temporaryFile(#"{"type":"ping"}"# + "\n", name: "p.jsonl").path
    for command in ["validate", "decode"] {
      for (alias, full) in [("send", "client_to_server"), ("receive", "server_to_client")] {
        let short = runCommand([command, "--direction", alias, ping])
        let long = runCommand([command, "--direction", full, ping])
        #expect(short.status == long.status, "\(command) --direction \(alias)")
        #expect(short.out == long.out, "\(command) --direction \(alias)")
        #expect(short.err == long.err, "\(command) --direction \(alias)")
      }
      #expect(runCommand([command, "--direction", "receive", ping]).status == 1)
      #expect(runCommand([command, "--direction", "send", ping]).status == 0)
    }
  }

  /// `file#N` counts frames from 0, as the help says: a HAR's first frame and a single frame are `#0`.
  @Test func frameNumbersCountFromZeroAsTheHelpSays() throws {
    let reference = try String(contentsOf: packageRoot.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
    #expect(reference.contains("`file#N`, N counted from 0 (the first frame is `file#0`)"))
    let bad = #"{\"type\":\"set_max_message_size\",\"size_kb\":0}"#
    let har = temporaryFile(
      #"{"log":{"entries":[{"_webSocketMessages":[{"type":"send","time":1,"opcode":1,"data":"\#(bad)"},"#
        + #"{"type":"receive","time":2,"opcode":1,"data":"{\"type\":\"pong\",\"x\":1}"}]}]}}"#,
      name: "t.har")
    let r = runCommand(["validate", "t.har"], directory: har.deletingLastPathComponent().path)
    #expect(r.out.hasPrefix("t.har#0: set_max_message_size /size_kb: error:"), "\(r.out)")
    #expect(r.out.contains("\nt.har#1: pong /x: warning:"), "\(r.out)")
    let frame = temporaryFile(#"{"type":"pong","x":1}"#, name: "f.json")
    let single = runCommand(
      ["validate", "--input", "frame", "f.json"], directory: frame.deletingLastPathComponent().path)
    #expect(single.out.hasPrefix("f.json#0: pong /x: warning:"), "\(single.out)")
  }
}
