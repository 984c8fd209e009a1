import Foundation
import VCProtoCapture

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
/// block on a full pipe) and its last bytes are kept to explain a crash. The peer runs in a process
/// group of its own (``PeerProcess``): stopping it kills the group and reaps the peer against a
/// deadline, so nothing it started can hold the run past its timeouts. What the peer says is
/// printed only through ``TerminalText`` (escaped and cut), by ``ConformanceCommand``.
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

  private var process: PeerProcess?
  private var input: Int32 = -1
  private var output: Int32 = -1
  private var errors: Int32 = -1
  /// Bytes read after the last complete line.
  private var pending: [UInt8] = []
  /// The last bytes of the peer's standard error.
  private var errorTail: [UInt8] = []
  private static let errorTailLimit = 2048
  /// How long a peer may take to exit on its own once its input is closed (``stop(gracefully:)``),
  /// and how long the runner waits for it after its output closed or after it was killed.
  static let exitGrace: Duration = .seconds(2)

  init(command: [String], maxReplyBytes: Int, directory: String) {
    self.command = command
    self.maxReplyBytes = maxReplyBytes
    self.directory = directory
  }

  deinit { stop(gracefully: false) }

  /// Whether a peer process is running (started and not stopped).
  var isRunning: Bool { process != nil }

  /// The process id of the running peer (the id of its process group too).
  var processIdentifier: Int32? { process?.pid }

  /// Starts the peer (stopping any previous one) in a process group of its own (``PeerProcess``).
  func start() throws(Failure) {
    stop(gracefully: false)
    // A peer that dies while we write must not kill the runner with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
    let child = try PeerProcess.spawn(command, directory: directory)
    process = child
    input = child.input
    output = child.output
    errors = child.errors
    pending = []
    errorTail = []
  }

  /// Stops the peer: closes its input and, when `gracefully`, gives it ``exitGrace`` to exit on its
  /// own; then kills its whole process group (whatever it left running goes too) and reaps it
  /// against a deadline. Never waits for its pipes: a descendant that escaped the group and holds
  /// them costs nothing.
  func stop(gracefully: Bool) {
    guard let child = process else { return }
    process = nil
    if input >= 0 { close(input) }
    input = -1
    if gracefully { child.wait(until: .now + Self.exitGrace) }
    child.killGroup()
    child.wait(until: .now + Self.exitGrace)
    close(child.output)
    close(child.errors)
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
    child.wait(until: .now + Self.exitGrace)
    drainErrors()
    return .exited(status: child.statusText, stderr: lastErrorLine)
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

  /// Reads what the peer's error output holds now, at most 1 MiB (a descendant that keeps writing
  /// there cannot keep the runner reading).
  private func drainErrors() {
    guard errors >= 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 65536)
    for _ in 0..<16 {
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
