/// A reusable buffer of the actions an engine returns, for a host that feeds it many events
/// (``ServerActions`` for a ``ServerEngine``, ``ClientActions`` for a ``ClientEngine``): the engine's
/// `handle(_:now:into:)` appends each event's actions, in order, and ``drain(_:)`` hands them to the
/// host, in the same order, leaving the buffer empty with its capacity.
///
/// ```swift
/// var actions = ClientActions()  // once per connection
/// try engine.handle(.received(message), now: clock.now, into: &actions)
/// actions.drain { action in perform(action) }
/// ```
///
/// Each action is moved to the host, not copied, and emptying the buffer destroys nothing the host
/// did not take: unlike an array of actions emptied with `removeAll(keepingCapacity:)`, which
/// destroys every element through the type's generic value witnesses. The buffer is noncopyable
/// (one owner, so no copy-on-write check on each append) and grows by doubling; what it holds is
/// released with it.
public struct ActionBuffer<Action>: ~Copyable {
  @usableFromInline var storage: UnsafeMutablePointer<Action>
  @usableFromInline var capacity: Int
  @usableFromInline var held = 0

  /// An empty buffer with room for `capacity` actions (at least one) before it grows.
  public init(capacity: Int = 16) {
    self.capacity = max(1, capacity)
    storage = .allocate(capacity: self.capacity)
  }

  deinit {
    storage.deinitialize(count: held)
    storage.deallocate()
  }

  /// The number of actions held.
  public var count: Int { held }

  /// Whether the buffer holds no action.
  public var isEmpty: Bool { held == 0 }

  /// Hands every action held to `body`, first to last, which takes it (`consuming`); the buffer is
  /// then empty. Should `body` throw, the actions after the one it was handed are dropped, and the
  /// error is rethrown.
  @inlinable
  public mutating func drain(_ body: (consuming Action) throws -> Void) rethrows {
    let end = held
    held = 0
    var next = 0
    defer { if next < end { (storage + next).deinitialize(count: end - next) } }
    while next < end {
      let action = (storage + next).move()
      next += 1
      try body(action)
    }
  }

  /// Appends `action`.
  @inline(__always)
  mutating func append(_ action: consuming Action) {
    if held == capacity { grow() }
    (storage + held).initialize(to: action)
    held += 1
  }

  /// Twice the room, the actions moved over.
  @inline(never)
  mutating func grow() {
    let fresh = UnsafeMutablePointer<Action>.allocate(capacity: 2 * capacity)
    fresh.moveInitialize(from: storage, count: held)
    storage.deallocate()
    storage = fresh
    capacity *= 2
  }
}

// Sendable: the storage is owned by this one value, which moves between threads whole.
extension ActionBuffer: @unchecked Sendable where Action: Sendable {}

/// The reusable buffer of a ``ServerEngine``'s actions (``ServerEngine/handle(_:now:into:)``).
public typealias ServerActions = ActionBuffer<ServerAction>

/// The reusable buffer of a ``ClientEngine``'s actions (``ClientEngine/handle(_:now:into:)``).
public typealias ClientActions = ActionBuffer<ClientAction>
