/// Why a ``ModelReader`` refused what it was reading (the generated `init(reading:)`). Internal to
/// the decoder and never shown to a caller: the validator alone explains a frame. After a miss of the
/// bytes reader the frame goes to the tree path, which reads it again; a miss of the tree reader means
/// the frame has an error, and the validator reports it.
enum DirectPathError: Error, Sendable, Hashable {
  /// The input is not one the reader accepts (on the bytes reader also: `type` not first, an escaped
  /// member name, a repeated member; the frame may still be valid) at byte `at` (the bytes reader) or
  /// 0 (the tree reader).
  case miss(at: Int)
  /// The shared JSON primitives rejected the bytes (syntax, UTF-8, a limit): the frame is not
  /// acceptable JSON, and the tree reader reports the same error.
  case read(JSONReadError)
}
