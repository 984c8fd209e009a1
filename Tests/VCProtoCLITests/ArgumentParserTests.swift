import Testing

@testable import VCProtoCLI

@Suite struct ArgumentParserTests {
  let spec = CommandSpec(
    name: "demo", abstract: "A demo.",
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
      name: "one", abstract: "", positionals: [PositionalSpec(name: "dir", help: "", optional: true)])
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
    for command in ["validate", "decode", "vectors", "catalog", "schema", "generate-model"] {
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
    #expect(validate.contains("--direction <client_to_server|server_to_client>"))
    #expect(validate.contains("send = client_to_server, receive = server_to_client"))
    let decode = runCommand(["decode", "--help"]).out
    #expect(decode.contains("--direction <client_to_server|server_to_client>"))
    #expect(decode.contains("send = client_to_server, receive = server_to_client"))
    let catalog = runCommand(["catalog", "--help"]).out
    #expect(catalog.contains("--format <text|json>"))
    #expect(catalog.contains("--direction <client_to_server|server_to_client>"))
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

  /// `validate --help` is short: its options, the exit status and one example, which runs as shown;
  /// the long reference is docs/CLI.md.
  @Test func validateHelpIsShort() throws {
    let help = runCommand(["validate", "--help"]).out
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count <= 40, "validate --help has \(lines.count) lines")
    #expect(help.contains("Exit status: 0 no errors (warnings allowed), 1 at least one error, 2 usage"))
    #expect(help.contains("docs/CLI.md"))
    let example = try #require(lines.first { $0.hasPrefix("Example: vcproto validate ") })
    let arguments = example.split(separator: " ").dropFirst(2).map(String.init)
    let r = runCommand(arguments, directory: packageRoot.path)
    #expect(r.status == 0, "\(example): \(r.err)")
    #expect(r.out.hasPrefix("OK Samples/"), "\(example)")
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
      #expect(option.valueName == "client_to_server|server_to_client", "\(name)")
      #expect(option.help.hasSuffix(" send = client_to_server, receive = server_to_client."), "\(name)")
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
    #expect(runCommand(["validate", "--help"]).out.contains("(`file#N` for frame N"))
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
