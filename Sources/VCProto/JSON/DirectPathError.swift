/// Why the direct decode path (``MessageDecoder``, the generated `init(pulling:)`) stopped reading a
/// frame. Internal to the decoder and never shown to a caller: on either case the frame goes to the
/// tree path, which reads it again and reports exactly what is wrong, if anything is.
enum DirectPathError: Error, Sendable, Hashable {
  /// The frame is not one the direct path recognises outright (`type` not first, an escaped member
  /// name, a repeated member, a broken rule, ...) at byte `at`. The frame may still be valid.
  case miss(at: Int)
  /// The shared JSON primitives rejected the bytes (syntax, UTF-8, a limit): the frame is not
  /// acceptable JSON, and the tree reader reports the same error.
  case read(JSONReadError)
}
