import VCProtoCapture

/// One row of the command table: a subcommand's declaration and the function that runs it.
struct RegisteredCommand: Sendable {
  /// What the parser accepts and what help prints.
  var spec: CommandSpec
  /// Runs the subcommand with its parsed arguments; returns the exit status.
  var run: @Sendable (ParsedArguments, CommandIO, EnvelopeOpener) throws(UsageError) -> Int32

  /// A subcommand that reads envelopes (its input may be compressed).
  init(
    _ spec: CommandSpec,
    _ run: @escaping @Sendable (ParsedArguments, CommandIO, EnvelopeOpener) throws(UsageError) -> Int32
  ) {
    self.spec = spec
    self.run = run
  }

  /// A subcommand that needs only its arguments and the standard streams.
  init(_ spec: CommandSpec, _ run: @escaping @Sendable (ParsedArguments, CommandIO) throws(UsageError) -> Int32) {
    self.spec = spec
    self.run = { args, io, _ throws(UsageError) in try run(args, io) }
  }
}
