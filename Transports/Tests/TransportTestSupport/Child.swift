import Foundation
import NIOPosix

/// The repository root (four levels above this file).
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// A fresh temporary directory.
public func temporaryDirectory() -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("vcproto-tap-tests-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A child process whose standard output is collected, killed when the test is done with it.
public final class Child: @unchecked Sendable {
  /// The process.
  public let process = Process()
  private let lock = NSLock()
  private var output = ""
  private var errors = ""

  /// Starts `executable` with `arguments`.
  public init(_ executable: String, _ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    out.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else { return }
      self.lock.withLock { self.output += String(decoding: data, as: UTF8.self) }
    }
    err.fileHandleForReading.readabilityHandler = { [weak self] handle in
      let data = handle.availableData
      guard let self, !data.isEmpty else { return }
      self.lock.withLock { self.errors += String(decoding: data, as: UTF8.self) }
    }
    try process.run()
  }

  /// What it wrote on standard output so far.
  public var stdout: String { lock.withLock { output } }
  /// What it wrote on standard error so far.
  public var stderr: String { lock.withLock { errors } }

  /// Waits (at most `seconds`) for a line of standard output starting with `prefix`; returns it.
  public func line(startingWith prefix: String, seconds: Double = 20) async throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) { return String(line) }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    throw TestFailure("no line '\(prefix)…' within \(seconds) s; stdout: \(stdout) stderr: \(stderr)")
  }

  /// Waits (at most `seconds`) for the process to end; its exit status.
  public func exitStatus(seconds: Double = 30) async throws -> Int32 {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning {
      guard Date() < deadline else {
        kill()
        throw TestFailure("still running after \(seconds) s; stdout: \(stdout) stderr: \(stderr)")
      }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    return process.terminationStatus
  }

  /// Sends `signal` (SIGTERM, SIGSTOP, SIGCONT, ...) if it still runs.
  public func signal(_ signal: Int32) {
    if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
  }

  /// Ends the process (SIGCONT first, should it be stopped, then SIGKILL) if it still runs.
  public func kill() {
    signal(SIGCONT)
    signal(SIGKILL)
  }

  deinit { kill() }
}

/// A test's failure with a message.
public struct TestFailure: Error, CustomStringConvertible {
  /// What went wrong.
  public var description: String
  /// A failure saying `description`.
  public init(_ description: String) { self.description = description }
}

/// A port nothing listens on (bound to 0, then closed).
public func freePort() throws -> Int {
  let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
    .bind(host: "127.0.0.1", port: 0).wait()
  let port = channel.localAddress!.port!
  try channel.close().wait()
  return port
}
