import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `--protocol`, declared once for every subcommand that takes it (`validate`, `decode`, `catalog`,
/// `schema`): the same name and value, checked against the catalog's versions the same way
/// (``ParsedArguments/version(_:)``).
enum ProtocolOption {
  /// The option's name on the command line.
  static let name = "protocol"

  /// The option's declaration; `help` says what the version does in that subcommand.
  static func spec(help: String) -> OptionSpec {
    .option(name, value: "version", help: help)
  }
}
