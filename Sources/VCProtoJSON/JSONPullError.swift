/// Why the pull reader (`JSONParser+Pull.swift`) gave up on what it was asked to read. It reads only
/// what it can read outright, so a refusal says nothing about the input's validity: the caller reads
/// it again another way (VCProtoCore's decoder calls it `DirectPathError` and takes its tree path).
@usableFromInline package enum JSONPullError: Error, Sendable, Hashable {
  /// The input is not one the pull reader accepts (a value of another type, an escaped member name, a
  /// repeated member, a shape the caller refused; the text may still be valid JSON) at byte `at`, or
  /// 0 where there is no position (a tree).
  case miss(at: Int)
  /// The shared JSON primitives rejected the bytes (syntax, UTF-8, a limit): the text is not
  /// acceptable JSON.
  case read(JSONReadError)
}
