import VCProtoCore
import VCProtoJSON

/// How a ``ServerConnection`` carries its client's ``ServerMemory`` across the client's connections
/// (``ClientMemoryStore``): before the engine reads a `connect` that names its client, the client's
/// memory goes into the engine (so the replay after authentication and the idempotency keys are
/// the client's); once the `connect` authenticated, the connection owns that memory, and gives it
/// back to the store when it ends.
extension ServerConnectionCore {
  /// The decoder of a `connect` before negotiation (every version's `connect` names its client the
  /// same way).
  static let connectDecoder = MessageDecoder(
    options: ValidationOptions(direction: .clientToServer, version: ServerEngine.handshakeVersion))

  /// While the engine waits for a `connect` and `message` is one naming its client: puts that
  /// client's memory in the engine and returns the client.
  func restoreMemory(before message: WebSocketMessage) async -> ExactString? {
    guard let memories, client == nil, engine.state == .awaitingConnect,
      let named = Self.client(of: message, maxBytes: engine.configuration.maxSessionIdBytes)
    else { return nil }
    let memory = await memories.memory(of: named)
    guard !finished, client == nil, engine.state == .awaitingConnect else { return nil }
    engine.memory = memory
    return named
  }

  /// After the engine read the message ``restoreMemory(before:)`` named `client` for: when it
  /// authenticated the connection, the connection owns the client's memory from now on.
  func claimMemory(of client: ExactString?) {
    guard let client, let memories, engine.state == .authenticated else { return }
    self.client = client
    memories.claim(client, memory: engine.memory, by: number, core: self)
  }

  /// The connection ended: the store keeps its client's memory (if it still owns it).
  func releaseMemory() {
    guard let client, let memories else { return }
    memories.release(client, memory: engine.memory, by: number)
  }

  /// The engine's memory now (asked by the store when the client connects again meanwhile).
  func memorySnapshot() -> ServerMemory {
    engine.memory
  }

  /// The client a `connect` names (its `session_id`, at most `maxBytes` bytes), or `nil`.
  static func client(of message: WebSocketMessage, maxBytes: Int) -> ExactString? {
    guard case .text(let bytes) = message,
      case .connect(let connect)? = try? connectDecoder.decodeClientMessage(bytes),
      let id = connect.sessionId, id.utf8.count <= maxBytes
    else { return nil }
    return ExactString(id)
  }
}
