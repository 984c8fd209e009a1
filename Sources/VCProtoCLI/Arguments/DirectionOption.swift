import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `--direction`, declared once for every subcommand that takes it (`validate`, `decode`, `catalog`):
/// the same accepted words, parsed the same way, everywhere.
enum DirectionOption {
  /// Each accepted word and the direction it names: the two directions, and `send` and `receive` as
  /// their aliases.
  static let words: [(word: String, direction: MessageDirection)] = [
    ("client_to_server", .clientToServer), ("server_to_client", .serverToClient),
    ("send", .clientToServer), ("receive", .serverToClient),
  ]

  /// The option's declaration; `help` says what the direction does in that subcommand, and the
  /// accepted words follow it.
  static func spec(help: String) -> OptionSpec {
    .option(
      "direction", value: "direction", allowed: words.map(\.word),
      help: help + ": client_to_server (send) or server_to_client (receive).")
  }

  /// The direction `--direction` names, or `nil` when it is not given.
  static func value(_ args: ParsedArguments) -> MessageDirection? {
    args["direction"].flatMap { given in words.first { $0.word == given }?.direction }
  }
}
