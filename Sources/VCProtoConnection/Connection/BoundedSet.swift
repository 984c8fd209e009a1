import VCProtoCore
import VCProtoJSON

/// A set that remembers at most `capacity` elements, forgetting the oldest insertion first. Used for
/// the windows an engine keeps of strings (replayed message ids, idempotency keys),
/// so memory stays bounded whatever the peer sends. Insert-only (nothing leaves but by eviction), so
/// `order` stays within about twice the capacity; the windows of subscriptions, whose positions are
/// purged, are ``PositionWindow``s.
struct BoundedSet<Element: Hashable & Sendable>: Sendable, Hashable {
  let capacity: Int
  private(set) var members: Set<Element> = []
  private var order: [Element] = []
  private var head = 0

  init(capacity: Int) { self.capacity = max(1, capacity) }

  var count: Int { members.count }

  func contains(_ element: Element) -> Bool { members.contains(element) }

  /// Makes room for `additional` more elements (up to the capacity) in one allocation, so a batch of
  /// inserts does not grow the tables step by step.
  mutating func reserve(_ additional: Int) {
    let wanted = min(capacity, members.count + additional)
    if wanted > members.capacity { members.reserveCapacity(wanted) }
    let needed = order.count + min(additional, capacity)
    if needed > order.capacity { order.reserveCapacity(needed) }
  }

  /// Inserts `element`; `true` when it was not there (the oldest element is forgotten when full).
  @discardableResult
  mutating func insert(_ element: Element) -> Bool {
    guard members.insert(element).inserted else { return false }
    order.append(element)
    while members.count > capacity, head < order.count {
      let oldest = order[head]
      head += 1
      members.remove(oldest)
    }
    if head > 64, head * 2 > order.count {
      order.removeFirst(head)
      head = 0
    }
    return true
  }
}
