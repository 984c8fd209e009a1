import Foundation
import VCProtoJSON

/// A value guarded by a lock: the only way to reach it is ``withLock(_:)``, so no code path can touch
/// it unlocked or forget to unlock. The one place vcproto uses a lock.
///
/// (`Synchronization.Mutex` does the same but needs macOS 15 / iOS 18; vcproto supports older systems.)
package final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Guards `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value and returns its result.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
