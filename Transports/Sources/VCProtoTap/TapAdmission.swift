import Foundation

/// Counts the tap's open connections against `--max-connections`: a connection is admitted during
/// its upgrade request and leaves when both its sockets are closed.
final class TapAdmission: @unchecked Sendable {
  let limit: Int
  private let lock = NSLock()
  private var open = 0

  init(limit: Int) {
    self.limit = max(limit, 1)
  }

  /// Admits one more connection, unless `limit` are open.
  func enter() -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard open < limit else { return false }
    open += 1
    return true
  }

  /// One admitted connection ended.
  func leave() {
    lock.lock()
    defer { lock.unlock() }
    open = max(open - 1, 0)
  }

  /// Connections open now.
  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return open
  }
}
