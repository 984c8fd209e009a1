import VCProtoJSON

/// The member a scan of a raw-JSON object captures (``BytesReader/readScanned(_:capturing:)``): a
/// string without escapes as where it lies in the object's bytes, so that no `String` is made while
/// decoding, or any other value parsed.
package enum ScannedCapture: Sendable {
  /// A string without escapes: its characters (between the quotes), `count` bytes from `offset`,
  /// counted from the object's first byte.
  case text(offset: Int, count: Int)
  /// Any other value (a string with escapes, a scalar), parsed.
  case value(JSONValue)
}
