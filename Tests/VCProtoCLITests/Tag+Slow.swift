import Foundation
import Testing

extension Tag {
  /// A suite that takes seconds of test time (children, large inputs, whole corpora). `swift test`
  /// runs it; a quick run skips it: `VCPROTO_QUICK=1 swift test` (see CONTRIBUTING.md).
  @Tag static var slow: Self
}

/// Whether the suites tagged `.slow` run: unless `VCPROTO_QUICK` is set to a non-empty value.
let slowSuitesRun = ProcessInfo.processInfo.environment["VCPROTO_QUICK", default: ""].isEmpty
