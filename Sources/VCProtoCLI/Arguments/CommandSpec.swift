/// One option a subcommand accepts: a flag (`--strict`) or an option with a value (`--format json`).
struct OptionSpec: Sendable {
  /// The long name without dashes, e.g. `format`.
  var name: String
  /// An optional one-letter alias, e.g. `o` for `-o`.
  var short: Character?
  /// The placeholder of the value (`nil` for a flag), e.g. `text|json`.
  var valueName: String?
  /// When set, the only values accepted.
  var allowedValues: [String]?
  /// One line of help.
  var help: String
  /// Hidden options work but are not listed in help.
  var hidden = false

  /// A flag without a value.
  static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, allowedValues: nil, help: help)
  }

  /// An option taking a value.
  static func option(
    _ name: String, short: Character? = nil, value: String, allowed: [String]? = nil, help: String,
    hidden: Bool = false
  ) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: value, allowedValues: allowed, help: help, hidden: hidden)
  }

  var isFlag: Bool { valueName == nil }

  /// `--format <text|json>` or `-o, --output <dir>`.
  var synopsis: String {
    var s = short.map { "-\($0), " } ?? ""
    s += "--\(name)"
    if let valueName { s += " <\(valueName)>" }
    return s
  }
}

/// A positional argument of a subcommand.
struct PositionalSpec: Sendable {
  /// Its name in usage, e.g. `capture`.
  var name: String
  /// One line of help.
  var help: String
  /// Whether it may be left out.
  var optional: Bool
  /// Whether it may be given more than once (only the last positional).
  var repeating: Bool = false
}

/// The declaration of one subcommand: what the parser accepts and what help prints.
///
/// Help is short, as swift-argument-parser lays it out (overview, usage, arguments, options), with
/// one example and the exit statuses; the long reference is docs/CLI.md, whose section for the
/// subcommand names every option (a test derives the list from these declarations).
struct CommandSpec: Sendable {
  /// The subcommand name, e.g. `validate`.
  var name: String
  /// One line saying what it does.
  var abstract: String
  /// The program it belongs to: `vcproto`, or the maintainers' `vcproto-dev`.
  var program = VCProtoCommand.program
  /// One command line that runs it, e.g. `vcproto validate --strict Samples/conversation-0.5.0.jsonl`.
  var example: String
  /// Every status it exits with, in order (usage errors included).
  var exitStatus: [ExitStatus]
  /// Its options (`--help` is implied).
  var options: [OptionSpec] = []
  /// Its positional arguments, in order.
  var positionals: [PositionalSpec] = []
  /// Hidden subcommands work but are not listed in the top-level help.
  var hidden = false

  static let helpOption = OptionSpec.flag("help", short: "h", help: "Show help for this command.")

  /// The document with the long reference of every subcommand.
  static let reference = "docs/CLI.md"

  /// `vcproto validate [<options>] <capture> ...`
  var usage: String {
    var parts = [program, name]
    if !options.isEmpty { parts.append("[<options>]") }
    for p in positionals {
      var s = "<\(p.name)>"
      if p.repeating { s += " ..." }
      parts.append(p.optional ? "[\(s)]" : s)
    }
    return parts.joined(separator: " ")
  }

  /// The full `--help` text.
  var help: String {
    var out = "OVERVIEW: \(abstract)\n\nUSAGE: \(usage)\nEXAMPLE: \(example)\n"
    if !positionals.isEmpty {
      out += "\nARGUMENTS:\n"
      for p in positionals { out += Self.row("<\(p.name)>", p.help) }
    }
    out += "\nOPTIONS:\n"
    for o in options where !o.hidden { out += Self.row(o.synopsis, o.help) }
    out += Self.row(Self.helpOption.synopsis, Self.helpOption.help)
    out += "\nEXIT STATUS:\n"
    for status in exitStatus { out += "  \(status.code)  \(status.meaning)\n" }
    out += "\nFull reference: \(Self.reference)#\(program == VCProtoCommand.program ? name : program)\n"
    return out
  }

  /// One aligned help row; long names push the help to the next line.
  static func row(_ left: String, _ right: String) -> String {
    let width = 34
    let lead = "  " + left
    if lead.count < width {
      return lead + String(repeating: " ", count: width - lead.count) + right + "\n"
    }
    return lead + "\n" + String(repeating: " ", count: width) + right + "\n"
  }
}
