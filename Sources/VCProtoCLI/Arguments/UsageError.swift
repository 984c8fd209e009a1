/// A command line the command cannot run: an unknown option, a missing or invalid value, a wrong
/// number of arguments. Reported on standard error with a one-line usage hint; exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, e.g. `unknown option '--fromat'`.
  var message: String

  init(_ message: String) {
    self.message = message
  }

  var description: String { message }
}
