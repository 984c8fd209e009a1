/// Heap space for the escaped strings that outgrow their stack space
/// (`JSONParser+Unescaping.swift`): one block of bytes, written through its pointer like the stack
/// space, so both are filled by the same code. A parser makes it on first use and keeps it for the
/// frame's later strings (growing it by replacing it); it is freed with the parser.
final class UnescapeSpace {
  /// The first byte.
  let base: UnsafeMutablePointer<UInt8>
  /// The bytes it holds.
  let capacity: Int

  /// Uninitialised space for `capacity` bytes.
  init(capacity: Int) {
    base = .allocate(capacity: capacity)
    self.capacity = capacity
  }

  deinit { base.deallocate() }
}
