/// Reads what the client engine needs of each 0.4.0/0.5.0 message of one `session_history` frame: the
/// integer member `name` (`seq` or `offset`; `message[name]?.intValue`) and whether a string
/// `session_id` names the subscribed session, in one pass over the members, in place.
///
/// Every message of a frame has the same few keys, which the parser made from the same strings
/// (``KnownKeys``). So the reader remembers, for each of the first ``cachedMembers`` member indices,
/// the representation of the key it last saw there (the bytes of the `String` value itself, not of
/// its text) and what that key was; a key with the same representation is the same string, so it is
/// classified again by comparing two words. A key never seen is compared with `name` and
/// `session_id` the exact way (``Swift/String/hasSameScalars(as:)``). The cache only saves work: two
/// `String` values with equal representations are the same string whatever the platform's layout,
/// and every string it remembers belongs to a message of the frame, all alive while the frame is read.
struct MessagePositionReader {
  /// Member indices whose keys are remembered (a message with more members reads the rest uncached).
  static let cachedMembers = 16

  /// What a key is to the reader.
  enum KeyKind: UInt8 {
    case unknown, position, sessionId, other
  }

  /// The representation of a `String` value: its bytes, read as two words (64-bit platforms; elsewhere
  /// the reader compares every key the exact way).
  struct Representation: Equatable {
    var low: UInt64 = 0
    var high: UInt64 = 0

    static var isAvailable: Bool { MemoryLayout<String>.size == MemoryLayout<Representation>.size }

    /// The bytes of the `String` stored at `raw` (copied as bytes: valid for any initialized memory).
    @inline(__always)
    init(of raw: UnsafeRawPointer) {
      withUnsafeMutableBytes(of: &self) { $0.copyMemory(from: UnsafeRawBufferPointer(start: raw, count: 16)) }
    }

    init(of string: String) {
      self.init()
      withUnsafeBytes(of: string) { bytes in
        withUnsafeMutableBytes(of: &self) { $0.copyMemory(from: bytes) }
      }
    }

    init() {}
  }

  struct CachedKey {
    var key = Representation()
    var kind = KeyKind.unknown
  }

  let name: String
  private let nameKey: Representation
  private let sessionIdKey: Representation
  private let cache: UnsafeMutableBufferPointer<CachedKey>
  /// Where a member's key lies in it, and the members' stride (read once a frame: a `static let`
  /// would cost a `swift_once` check per member).
  private let keyOffset: Int
  private let stride: Int
  /// The representation is two words (``Representation/isAvailable``) and the key's offset is known.
  private let cacheable: Bool

  /// Runs `body` with a reader for `name` (its key cache on the stack, for the one frame).
  static func withReader<R>(named name: String, _ body: (inout MessagePositionReader) -> R) -> R {
    withUnsafeTemporaryAllocation(of: CachedKey.self, capacity: cachedMembers) { cache in
      cache.initialize(repeating: CachedKey())
      var reader = MessagePositionReader(name: name, cache: cache)
      return body(&reader)
    }
  }

  private init(name: String, cache: UnsafeMutableBufferPointer<CachedKey>) {
    self.name = name
    self.cache = cache
    nameKey = Representation(of: name)
    sessionIdKey = Representation(of: "session_id")
    let offset = MemoryLayout<JSONObject.Member>.offset(of: \JSONObject.Member.key)
    keyOffset = offset ?? 0
    stride = MemoryLayout<JSONObject.Member>.stride
    cacheable = Representation.isAvailable && offset != nil
  }

  /// What `members[index].key` is.
  @inline(__always)
  func kind(of members: UnsafeBufferPointer<JSONObject.Member>, at index: Int) -> KeyKind {
    guard cacheable, index < cache.count, let base = members.baseAddress else {
      return exactKind(members[index].key)
    }
    // In bounds: `index` is below `members.count`, and the key is a stored `String` of that member.
    let key = Representation(of: UnsafeRawPointer(base) + index * stride + keyOffset)
    if cache[index].key == key, cache[index].kind != .unknown { return cache[index].kind }
    let kind: KeyKind
    if key == nameKey {
      kind = .position
    } else if key == sessionIdKey {
      kind = .sessionId
    } else {
      kind = exactKind(members[index].key)
    }
    cache[index] = CachedKey(key: key, kind: kind)
    return kind
  }

  @inline(never)
  private func exactKind(_ key: String) -> KeyKind {
    if key.hasSameScalars(as: name) { return .position }
    if key.hasSameScalars(as: "session_id") { return .sessionId }
    return .other
  }

  /// The message's position, read in place: ``InPlacePosition/undecided`` when reading bytes cannot
  /// decide (a literal or an id whose bytes are not contiguous, or a `session_id` with other bytes
  /// than `session`, which may still be a canonically equivalent string); the caller then reads the
  /// message the plain way.
  @inline(__always)
  func position(of members: UnsafeBufferPointer<JSONObject.Member>, session: UnsafeBufferPointer<UInt8>)
    -> InPlacePosition
  {
    var position: Int?
    var seenPosition = false
    var seenSession = false
    var sameSession = true
    for index in 0..<members.count {
      switch kind(of: members, at: index) {
      case .position where !seenPosition:
        seenPosition = true
        if case .number(let number) = members[index].value {
          guard let value = number.literal.utf8.withContiguousStorageIfAvailable({ IntegerLiteral.value(of: $0) })
          else { return .undecided }
          position = value.flatMap { Int(exactly: $0) }
        }
      case .sessionId where !seenSession:
        seenSession = true
        if case .string(let owner) = members[index].value {
          guard let same = owner.utf8.withContiguousStorageIfAvailable({ UTF8Bytes.equal($0, session) })
          else { return .undecided }
          sameSession = same
        }
      default: continue
      }
      if seenPosition, seenSession { break }
    }
    guard let position else { return .absent }
    return sameSession ? .position(position) : .undecided
  }
}
