import VCProtoCore
import VCProtoJSON

/// What a ``ServerHost`` remembers of its clients between their connections: each client's
/// ``ServerMemory`` (the `message_ack` replay buffer and the `idempotent_prompt` keys), as the engine's
/// contract asks (STANDARDS.md#what-survives: a server keeps them per client for the client's
/// next connection).
///
/// A client is named by the `session_id` of its `connect` (the client's own id, which the real
/// backend only echoes), compared by its exact scalars (``ExactString``); a connection whose
/// `connect` names none, or one longer than ``ServerConfiguration/maxSessionIdBytes``, starts empty
/// and leaves nothing behind. The newest authenticated connection of a client owns its memory: the
/// next one starts from that connection's memory as it is then (even while it is still open, as
/// after a network failure the server has not noticed yet), and an older connection still open no
/// longer writes its memory back when it closes.
///
/// Bounded by `capacity` clients without an open connection: past it, the one that connected least
/// recently is forgotten. A client's memory costs at most the replay budget
/// (``ServerConfiguration/replayBufferBytes``) plus 1,024 keys of 256 bytes.
final class ClientMemoryStore: Sendable {
  private struct Entry {
    var memory = ServerMemory()
    var owner: (number: Int, core: ServerConnectionCore)?
    var used = 0
  }

  private struct State {
    var entries: [ExactString: Entry] = [:]
    var uses = 0
  }

  /// Most clients remembered without an open connection.
  let capacity: Int
  private let state = Locked(State())

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  /// The number of clients remembered (with an open connection or not).
  var count: Int { state.withLock { $0.entries.count } }

  /// The memory of `client` now: its owning connection's, else the one kept, else an empty one.
  func memory(of client: ExactString) async -> ServerMemory {
    let (kept, owner) = state.withLock { state in (state.entries[client]?.memory, state.entries[client]?.owner) }
    if let owner { return await owner.core.memorySnapshot() }
    return kept ?? ServerMemory()
  }

  /// Connection `number` authenticated as `client` with `memory`: it owns the client's memory now.
  func claim(_ client: ExactString, memory: ServerMemory, by number: Int, core: ServerConnectionCore) {
    state.withLock { state in
      state.uses += 1
      var entry = state.entries[client] ?? Entry()
      entry.memory = memory
      entry.owner = (number, core)
      entry.used = state.uses
      state.entries[client] = entry
    }
  }

  /// Connection `number` of `client` ended with `memory`: kept if that connection still owned it.
  func release(_ client: ExactString, memory: ServerMemory, by number: Int) {
    state.withLock { state in
      guard var entry = state.entries[client], entry.owner?.number == number else { return }
      entry.memory = memory
      entry.owner = nil
      state.entries[client] = entry
      Self.forgetBeyond(capacity, &state)
    }
  }

  /// Forgets the clients without an open connection that connected least recently, until at most
  /// `capacity` of them remain.
  private static func forgetBeyond(_ capacity: Int, _ state: inout State) {
    var idle = state.entries.filter { $0.value.owner == nil }.map { (client: $0.key, used: $0.value.used) }
    guard idle.count > capacity else { return }
    idle.sort { $0.used < $1.used }
    for forgotten in idle.prefix(idle.count - capacity) { state.entries[forgotten.client] = nil }
  }
}
