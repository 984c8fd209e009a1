import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The implementation under test of `vcproto conformance`: a child process spoken to in JSON Lines
/// over its standard input and output (Vectors/CONFORMANCE.md).
///
/// Every wait has a deadline: writes and reads go through `poll(2)` on non-blocking pipes, so a peer
/// that hangs, stops reading or never ends its line costs one timeout, never the run. A reply is
/// bounded by `maxReplyBytes`. The peer's standard error is drained as it comes (so it can never
/// block on a full pipe) and its last bytes are kept to explain a crash.
final class ConformancePeer {
  /// Why a peer gave no usable line.
  enum Failure: Error, CustomStringConvertible {
    /// The peer closed its output or exited; `status` is its exit status when known.
    case exited(status: String, stderr: String)
    /// No complete line before the deadline.
    case timedOut(seconds: Double)
    /// A line longer than the bound (the rest is not read).
    case tooLong(limit: Int)
    /// The peer could not be started.
    case notStarted(String)

    var description: String {
      switch self {
      case .exited(let status, let stderr):
        return "the peer exited (\(status))" + (stderr.isEmpty ? "" : "; its last error output: \(stderr)")
      case .timedOut(let seconds): return "no answer within \(Self.show(seconds)) s (the peer hangs)"
      case .tooLong(let limit): return "the answer is longer than \(limit) bytes"
      case .notStarted(let why): return "the peer could not be started: \(why)"
      }
    }

    static func show(_ seconds: Double) -> String {
      seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
  }

  /// The command line: the program (looked up in `PATH`) and its arguments.
  let command: [String]
  /// The longest line accepted from the peer, in bytes.
  let maxReplyBytes: Int
  /// The directory the peer starts in.
  let directory: String

  private var process: Process?
  private var pipes: [Pipe] = []
  private var input: Int32 = -1
  private var output: Int32 = -1
  private var errors: Int32 = -1
  /// Bytes read after the last complete line.
  private var pending: [UInt8] = []
  /// The last bytes of the peer's standard error.
  private var errorTail: [UInt8] = []
  private static let errorTailLimit = 2048

  init(command: [String], maxReplyBytes: Int, directory: String) {
    self.command = command
    self.maxReplyBytes = maxReplyBytes
    self.directory = directory
  }

  deinit { stop(gracefully: false) }

  /// Whether a peer process is running (started and not stopped).
  var isRunning: Bool { process != nil }

  /// Starts the peer (stopping any previous one).
  func start() throws(Failure) {
    stop(gracefully: false)
    // A peer that dies while we write must not kill the runner with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    child.arguments = command
    child.currentDirectoryURL = URL(fileURLWithPath: directory)
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    child.standardInput = stdin
    child.standardOutput = stdout
    child.standardError = stderr
    do {
      try child.run()
    } catch {
      throw .notStarted("\(command.joined(separator: " ")): \(error)")
    }
    // The child's ends belong to the child alone: with ours closed, its exit is seen as end of file.
    try? stdin.fileHandleForReading.close()
    try? stdout.fileHandleForWriting.close()
    try? stderr.fileHandleForWriting.close()
    process = child
    pipes = [stdin, stdout, stderr]
    input = stdin.fileHandleForWriting.fileDescriptor
    output = stdout.fileHandleForReading.fileDescriptor
    errors = stderr.fileHandleForReading.fileDescriptor
    for fd in [input, output, errors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    pending = []
    errorTail = []
  }

  /// Stops the peer: closes its input and, when `gracefully`, gives it a moment to exit on its own
  /// before it is killed.
  func stop(gracefully: Bool) {
    guard let child = process else { return }
    process = nil
    if input >= 0 { try? pipes[0].fileHandleForWriting.close() }
    input = -1
    if gracefully {
      let until = ContinuousClock.now + .seconds(2)
      while child.isRunning, ContinuousClock.now < until { usleep(10_000) }
    }
    if child.isRunning { kill(child.processIdentifier, SIGKILL) }
    child.waitUntilExit()
    try? pipes[1].fileHandleForReading.close()
    try? pipes[2].fileHandleForReading.close()
    pipes = []
    output = -1
    errors = -1
  }

  /// Writes `bytes` (one line, with its newline) before `deadline`.
  func send(_ bytes: [UInt8], timeout seconds: Double) throws(Failure) {
    guard process != nil else { throw .exited(status: "not running", stderr: "") }
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
      if n > 0 {
        offset += n
        continue
      }
      guard n < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { throw exitFailure() }
      // Drain its error output meanwhile: a peer blocked writing there would never read.
      var fds = [pollfd(fd: input, events: Int16(POLLOUT), revents: 0)]
      if errors >= 0 { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
      guard try wait(&fds, until: deadline, seconds: seconds) else { continue }
      if fds.count > 1, fds[1].revents != 0 { readErrors() }
      if fds[0].revents & Int16(POLLERR | POLLHUP) != 0 { throw exitFailure() }
    }
  }

  /// Reads the next line (without its newline) before the deadline.
  func receive(timeout seconds: Double) throws(Failure) -> [UInt8] {
    guard process != nil else { throw .exited(status: "not running", stderr: "") }
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    var searched = 0
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      if let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        guard newline <= maxReplyBytes else { throw .tooLong(limit: maxReplyBytes) }
        let line = Array(pending[..<newline])
        pending.removeFirst(newline + 1)
        return line
      }
      searched = pending.count
      if pending.count > maxReplyBytes { throw .tooLong(limit: maxReplyBytes) }
      var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
      if errors >= 0 { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
      guard try wait(&fds, until: deadline, seconds: seconds) else { continue }
      if fds.count > 1, fds[1].revents != 0 { readErrors() }
      if fds[0].revents != 0 {
        let n = read(output, &buffer, buffer.count)
        if n > 0 {
          pending.append(contentsOf: buffer[..<n])
        } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
          throw exitFailure()
        }
      }
    }
  }

  /// Polls until an event or the deadline; `false` when interrupted (try again).
  private func wait(_ fds: inout [pollfd], until deadline: ContinuousClock.Instant, seconds: Double) throws(Failure)
    -> Bool
  {
    let left = ContinuousClock.now.duration(to: deadline)
    guard left > .zero else { throw .timedOut(seconds: seconds) }
    let milliseconds = Int32(
      clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
    let ready = poll(&fds, nfds_t(fds.count), milliseconds)
    if ready < 0 { return false }
    if ready == 0 { throw .timedOut(seconds: seconds) }
    return true
  }

  /// The failure of a peer whose pipes closed: its exit status (waited for briefly) and the last
  /// line of its standard error.
  private func exitFailure() -> Failure {
    guard let child = process else { return .exited(status: "not running", stderr: "") }
    let until = ContinuousClock.now + .seconds(2)
    while child.isRunning, ContinuousClock.now < until { usleep(5_000) }
    drainErrors()
    let status: String
    if child.isRunning {
      status = "its output closed while it still runs"
    } else if child.terminationReason == .uncaughtSignal {
      status = "killed by signal \(child.terminationStatus)"
    } else {
      status = "status \(child.terminationStatus)"
    }
    return .exited(status: status, stderr: lastErrorLine)
  }

  /// Reads what the peer's error output holds now (once), keeping the tail.
  private func readErrors() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = read(errors, &buffer, buffer.count)
    if n > 0 {
      errorTail.append(contentsOf: buffer[..<n])
      if errorTail.count > Self.errorTailLimit { errorTail.removeFirst(errorTail.count - Self.errorTailLimit) }
    } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
      errors = -1  // closed: stop watching it
    }
  }

  private func drainErrors() {
    guard errors >= 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(errors, &buffer, buffer.count)
      guard n > 0 else { return }
      errorTail.append(contentsOf: buffer[..<n])
      if errorTail.count > Self.errorTailLimit { errorTail.removeFirst(errorTail.count - Self.errorTailLimit) }
    }
  }

  /// The last non-empty line of the peer's standard error, at most 300 characters.
  var lastErrorLine: String {
    let text = String(decoding: errorTail, as: UTF8.self)
    let line = text.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
    return line.count > 300 ? String(line.suffix(300)) : line
  }
}
