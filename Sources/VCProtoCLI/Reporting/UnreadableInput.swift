/// An input file the command line cannot read, with the reason (`no such file`, `is a directory`,
/// ...), never its contents.
struct UnreadableInput: Error, Equatable {
  /// Why the file cannot be read.
  var reason: String
}
