/// `--format`, declared once for the subcommands that print text or JSON (`validate`, `catalog`).
enum FormatOption: String, CaseIterable {
  /// Lines for a person (the default).
  case text
  /// JSON for programs.
  case json

  /// The option's declaration.
  static let spec = OptionSpec.choice("format", of: FormatOption.self, help: "Output format (default text).")

  /// The format `--format` names; `text` when it is not given.
  static func value(_ args: ParsedArguments) -> FormatOption {
    args.choice("format") ?? .text
  }
}
