/// What one parse cost, counted as it goes: the measure the work and memory bounds are tested with
/// (STANDARDS.md#limits), never timed.
@usableFromInline package struct JSONParseStats: Sendable, Hashable {
  /// Values read: the top-level value, every member value and every array element. Checked against
  /// ``JSONLimits/maxValues``.
  @usableFromInline package var values = 0
  /// Member-name comparisons and hash insertions made while looking for duplicate keys.
  @usableFromInline package var keyChecks = 0
  /// Element slots reserved by the arrays of the tree (their capacities, summed).
  @usableFromInline package var reservedElements = 0
  /// Member slots reserved by the objects of the tree (their capacities, summed).
  @usableFromInline package var reservedMembers = 0
  /// Non-empty arrays and objects of the tree (each is one heap allocation).
  @usableFromInline package var containers = 0
  /// Capacity of the parse's stack of open arrays' elements at its largest (freed after the parse).
  @usableFromInline package var stackElements = 0
  /// Capacity of the parse's stack of open objects' members at its largest (freed after the parse).
  @usableFromInline package var stackMembers = 0

  @inlinable package init() {}
}
