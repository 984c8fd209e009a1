import Foundation
import VCProtoCapture

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Everything a command touches outside itself: its streams, terminal facts, environment and
/// working directory. Tests pass buffers; the executable passes ``standard``.
public struct CommandIO: Sendable {
  /// Standard output.
  public var standardOutput: OutputSink
  /// Standard error (usage errors, progress, decode warnings).
  public var standardError: OutputSink
  /// Opens standard input for reading (used for the `-` input).
  public var openStandardInput: @Sendable () -> FileHandle
  /// When set, standard input is these bytes instead of ``openStandardInput`` (tests, fuzzing).
  public var standardInputBytes: [UInt8]?
  /// Whether standard output is a terminal (colour is used only then).
  public var standardOutputIsTerminal: Bool
  /// Whether standard error is a terminal (progress is shown only then).
  public var standardErrorIsTerminal: Bool
  /// The environment (`NO_COLOR` is read from it).
  public var environment: [String: String]
  /// The directory relative paths are resolved against.
  public var currentDirectory: String

  /// Creates an IO bundle.
  public init(
    standardOutput: OutputSink, standardError: OutputSink,
    openStandardInput: @escaping @Sendable () -> FileHandle = { FileHandle.standardInput },
    standardOutputIsTerminal: Bool = false, standardErrorIsTerminal: Bool = false,
    environment: [String: String] = [:], currentDirectory: String = FileManager.default.currentDirectoryPath
  ) {
    self.standardOutput = standardOutput
    self.standardError = standardError
    self.openStandardInput = openStandardInput
    self.standardOutputIsTerminal = standardOutputIsTerminal
    self.standardErrorIsTerminal = standardErrorIsTerminal
    self.environment = environment
    self.currentDirectory = currentDirectory
  }

  /// The process's real streams, terminal state and environment.
  public static var standard: CommandIO {
    CommandIO(
      standardOutput: OutputSink(handle: .standardOutput),
      standardError: OutputSink(handle: .standardError),
      standardOutputIsTerminal: isatty(STDOUT_FILENO) == 1,
      standardErrorIsTerminal: isatty(STDERR_FILENO) == 1,
      environment: ProcessInfo.processInfo.environment)
  }

  /// Standard input as a streaming source.
  func standardInputSource() -> ByteSource {
    if let bytes = standardInputBytes { return ByteSource(bytes: bytes) }
    return ByteSource(handle: openStandardInput())
  }

  /// Colour is used only when standard output is a terminal and `NO_COLOR` is absent or empty, as
  /// https://no-color.org specifies: any non-empty value, even `0` or `false`, turns colour off.
  var usesColor: Bool {
    standardOutputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
  }

  /// The input `path` names: standard input for `-`, else the file (resolved against
  /// ``currentDirectory``), or why it cannot be read.
  func input(_ path: String) -> Result<ByteSource, UnreadableInput> {
    if path == "-" { return .success(standardInputSource()) }
    let resolved = resolve(path)
    if let opened = ByteSource.open(path: resolved) { return .success(opened) }
    return .failure(UnreadableInput(reason: ByteSource.whyUnreadable(resolved)))
  }

  /// Resolves a path against ``currentDirectory``.
  func resolve(_ path: String) -> String {
    path.hasPrefix("/") ? path : (currentDirectory as NSString).appendingPathComponent(path)
  }
}
