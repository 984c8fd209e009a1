/// One exit status a subcommand returns and what it means, as its `--help` lists it.
struct ExitStatus: Sendable, Equatable {
  /// The status, e.g. `1`.
  var code: Int32
  /// What it means, e.g. `at least one error`.
  var meaning: String

  init(_ code: Int32, _ meaning: String) {
    self.code = code
    self.meaning = meaning
  }

  /// `2`: a usage error (an unknown option, a missing or invalid value), the status of every
  /// subcommand's command-line mistakes.
  static let usage = ExitStatus(2, "usage error")
}
