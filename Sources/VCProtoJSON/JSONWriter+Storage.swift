extension JSONWriter {
  /// The writer's bytes: one allocation holding its capacity (the header, read only when it grows:
  /// the writer keeps a copy, as reading a class's stored property is checked for exclusive access
  /// at run time) and then the bytes; only the first `count` of them (the writer's) are initialized.
  ///
  /// A writer writes through a pointer into its storage after making room once per call: one check
  /// that the storage is its own (writers are values: a copied writer shares it until one of them
  /// writes, which then copies it, as an array does) and one of the room left. An array appended to
  /// byte by byte paid a uniqueness check, a capacity check and a call on every append.
  @usableFromInline
  package final class Storage: ManagedBuffer<Int, UInt8> {
    /// New storage for `capacity` bytes, none initialized.
    @usableFromInline
    package static func make(capacity: Int) -> Storage {
      // The header records the capacity asked for: what the writer relies on (the allocation may
      // be larger).
      let capacity = Swift.max(capacity, 16)
      return unsafeDowncast(Storage.create(minimumCapacity: capacity) { _ in capacity }, to: Storage.self)
    }

    /// The first byte.
    @inlinable @inline(__always)
    package var start: UnsafeMutablePointer<UInt8> { withUnsafeMutablePointerToElements { $0 } }
  }

  /// A pointer at which `size` bytes may be stored (past the bytes written so far), after making the
  /// storage the writer's own and large enough. Storing them and then adding the number stored to
  /// `count` appends them.
  @inlinable @inline(__always)
  package mutating func room(_ size: Int) -> UnsafeMutablePointer<UInt8> {
    if _slowPath(capacity &- count < size || !isKnownUniquelyReferenced(&storage)) { makeRoom(size) }
    return storage.start + count
  }

  /// Replaces the storage with the writer's own, of at least `count + size` bytes (twice the old
  /// capacity when that is more), holding the bytes written so far.
  @usableFromInline @inline(never)
  package mutating func makeRoom(_ size: Int) {
    let needed = count + size
    let new = Storage.make(capacity: capacity >= needed ? capacity : Swift.max(needed, capacity &* 2))
    new.start.initialize(from: storage.start, count: count)
    storage = new
    capacity = new.header
  }

  /// Appends `source`, bytes that are already JSON.
  @inlinable @inline(__always)
  package mutating func appendRaw(_ source: UnsafeRawBufferPointer) {
    guard let from = source.baseAddress, source.count > 0 else { return }
    UnsafeMutableRawPointer(room(source.count)).copyMemory(from: from, byteCount: source.count)
    count &+= source.count
  }

  /// Appends `fragment`, a piece of JSON known when the program is compiled (punctuation, a member
  /// name with its quotes, a literal): inlined where the fragment is a literal, so that the copy of
  /// its few bytes is a few stores.
  @inlinable @inline(__always)
  package mutating func appendRaw(_ fragment: StaticString) {
    appendRaw(UnsafeRawBufferPointer(start: fragment.utf8Start, count: fragment.utf8CodeUnitCount))
  }

  /// Appends one byte.
  @inlinable @inline(__always)
  package mutating func appendByte(_ byte: UInt8) {
    room(1).pointee = byte
    count &+= 1
  }

  /// The bytes written so far, as a new array.
  public var bytes: [UInt8] {
    // Made from a buffer pointer: the array's allocation is then specialized code (making it
    // uninitialized or zeroed and then filling it looks up the array's type at run time, and costs
    // more than the copy).
    withExtendedLifetime(storage) { [UInt8](UnsafeBufferPointer(start: storage.start, count: count)) }
  }

  /// The number of bytes written so far.
  public var byteCount: Int { count }

  /// Calls `body` with the bytes written so far, without copying them (the pointer is valid only
  /// during the call).
  public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try withExtendedLifetime(storage) { try body(UnsafeRawBufferPointer(start: storage.start, count: count)) }
  }

  /// Forgets the bytes written, keeping the storage: a writer used for one frame after another
  /// allocates only when a frame is longer than every one before.
  public mutating func removeAll() {
    count = 0
  }
}
