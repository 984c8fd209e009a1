import Foundation
import VCProtoCapture

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// What `vcproto-tap` writes to and reads of its surroundings: its two streams, whether standard
/// output is a terminal, and the environment. Tests pass buffers; the executable passes ``standard``.
public struct TapIO: Sendable {
  /// Standard output (the findings and the summary).
  public var standardOutput: OutputSink
  /// Standard error (the tap's diagnostics and usage errors).
  public var standardError: OutputSink
  /// Whether standard output is a terminal (colour is used only then).
  public var standardOutputIsTerminal: Bool
  /// The environment (`NO_COLOR` is read from it).
  public var environment: [String: String]

  /// Creates an IO bundle.
  public init(
    standardOutput: OutputSink, standardError: OutputSink, standardOutputIsTerminal: Bool = false,
    environment: [String: String] = [:]
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.standardOutputIsTerminal = standardOutputIsTerminal
    self.environment = environment
  }

  /// The process's real streams, terminal state and environment.
  public static var standard: TapIO {
    TapIO(
      standardOutput: OutputSink(handle: .standardOutput), standardError: OutputSink(handle: .standardError),
      standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment)
  }

  /// Colour is used only when standard output is a terminal and `NO_COLOR` is absent or empty
  /// (https://no-color.org), as `vcproto validate` decides.
  var usesColor: Bool {
    standardOutputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
  }
}
