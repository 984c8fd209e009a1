import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The peer of `vcproto conformance` as an operating-system process: started with `posix_spawn` as
/// the leader of a process group of its own, with three pipes for its standard input, output and
/// error, and reaped by `waitpid` against a deadline.
///
/// Its own group lets the runner kill the peer and everything it started (a shell wrapper's
/// children, a helper that sleeps) with one signal; reaping by process id, never by waiting for its
/// pipes to close, means a descendant that keeps them open (or escapes the group) cannot hold the
/// runner past its deadline. (Foundation's `Process.waitUntilExit()` on Linux waits until every
/// holder of a descriptor the child inherited has closed it: 90 s with `--timeout 2` for a peer
/// whose child sleeps 90 s.)
final class PeerProcess {
  /// The leader's process id, which is also the group's id.
  let pid: pid_t
  /// Our end of the peer's standard input (written), standard output and standard error (read):
  /// non-blocking, closed on exec.
  let input: Int32
  let output: Int32
  let errors: Int32
  /// The leader's wait status once reaped.
  private(set) var waitStatus: Int32?

  private init(pid: pid_t, input: Int32, output: Int32, errors: Int32) {
    self.pid = pid
    self.input = input
    self.output = output
    self.errors = errors
  }

  /// Starts `command` (the program, looked up in `PATH`, and its arguments) in `directory`, in a new
  /// process group. The program is started through `/bin/sh` (which changes to the directory and
  /// `exec`s it), because `posix_spawn` has no portable way to set the directory: a program that
  /// is not found ends with status 127 and the shell's message on its error output.
  static func spawn(_ command: [String], directory: String) throws(ConformancePeer.Failure) -> PeerProcess {
    var ends: [[Int32]] = []
    func closeAll() { for pair in ends { for fd in pair { close(fd) } } }
    for _ in 0..<3 {
      var pair: [Int32] = [-1, -1]
      guard pipe(&pair) == 0 else {
        closeAll()
        throw .notStarted("pipe: \(String(cString: strerror(errno)))")
      }
      // Closed on exec: neither this peer nor any other process the runner starts inherits them
      // (the child's copies are made by dup2 below, which clears the flag).
      for fd in pair { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      ends.append(pair)
    }
    let (stdin, stdout, stderr) = (ends[0], ends[1], ends[2])

    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
      var attributes: posix_spawnattr_t? = nil
    #else
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    defer {
      posix_spawn_file_actions_destroy(&actions)
      posix_spawnattr_destroy(&attributes)
    }
    posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
    posix_spawn_file_actions_adddup2(&actions, stderr[1], 2)
    // Its own process group (the group id is its process id), so that one kill reaches everything
    // it starts; default signal handling, so an ignored SIGPIPE of the runner is not inherited.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))

    let script = #"cd -- "$1" || exit 126; shift; exec "$@""#
    let arguments = ["sh", "-c", script, "vcproto-peer", directory] + command
    let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { for p in argv + envp { free(p) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
    close(stdin[0])
    close(stdout[1])
    close(stderr[1])
    guard result == 0 else {
      for fd in [stdin[1], stdout[0], stderr[0]] { close(fd) }
      throw .notStarted("\(command.joined(separator: " ")): \(String(cString: strerror(result)))")
    }
    for fd in [stdin[1], stdout[0], stderr[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    return PeerProcess(pid: pid, input: stdin[1], output: stdout[0], errors: stderr[0])
  }

  /// Whether the leader has not been reaped yet (reaps it when it has exited).
  var isRunning: Bool {
    reap()
    return waitStatus == nil
  }

  /// Reaps the leader if it has exited, without waiting.
  private func reap() {
    guard waitStatus == nil else { return }
    var status: Int32 = 0
    let result = waitpid(pid, &status, WNOHANG)
    if result == pid {
      waitStatus = status
    } else if result < 0, errno == ECHILD {
      waitStatus = -1  // reaped elsewhere: nothing left to wait for
    }
  }

  /// Waits for the leader to exit, until `deadline`; `true` when it has been reaped.
  @discardableResult
  func wait(until deadline: ContinuousClock.Instant) -> Bool {
    while isRunning {
      guard ContinuousClock.now < deadline else { return false }
      usleep(5_000)
    }
    return true
  }

  /// Sends SIGKILL to the whole process group: the leader and every descendant that stayed in it.
  func killGroup() {
    _ = kill(-pid, SIGKILL)
  }

  /// How the leader ended, for a failure message.
  var statusText: String {
    guard let status = waitStatus else { return "its output closed while it still runs" }
    guard status >= 0 else { return "status unknown" }
    let signal = status & 0x7f
    return signal == 0 ? "status \((status >> 8) & 0xff)" : "killed by signal \(signal)"
  }
}
