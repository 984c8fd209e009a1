import Foundation

/// `--failure-list FILE` of `vcproto conformance`: the tests an implementation is known to fail, one
/// test name per line (`messages/connect.null.api_key`); `#` starts a comment, blank lines are
/// ignored. A listed test that fails is a known failure; a listed test that passes is reported so
/// the list shrinks, and fails the run like an unlisted failure.
struct ConformanceFailureList: Sendable, Equatable {
  /// The listed test names.
  var names: Set<String> = []

  /// Parses the file's text; a name given twice is an error (the list is meant to be exact).
  init(text: String) throws(UsageError) {
    for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      let name = line.trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else { continue }
      guard names.insert(name).inserted else {
        throw UsageError("failure list line \(number + 1): \(name) is listed twice")
      }
    }
  }

  init() {}

  /// What a test's result means given the list.
  func verdict(_ name: String, passed: Bool) -> ConformanceVerdict {
    switch (passed, names.contains(name)) {
    case (true, false): return .passed
    case (true, true): return .unexpectedPass
    case (false, true): return .knownFailure
    case (false, false): return .failed
    }
  }
}

/// The result of one test after the failure list is applied.
enum ConformanceVerdict: Sendable, Equatable {
  case passed
  /// Listed as a known failure, yet it passed: remove it from the list.
  case unexpectedPass
  /// Failed, and listed.
  case knownFailure
  /// Failed, and not listed.
  case failed
  /// Not run: the peer does not support the kind, or said `unsupported`.
  case skipped

  /// Whether this verdict fails the run.
  var failsRun: Bool { self == .failed || self == .unexpectedPass }
}
