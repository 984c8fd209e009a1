import VCProtoCore
import VCProtoJSON

/// How the engines compare a string read from a frame (a `type`, a member name) with one of the ASCII
/// names they know. Their tables of names are generic over it, so that each use is specialised:
/// first ``ByRepresentation`` for every name, then, only when none matches, ``ByBytes``.
protocol NameComparison {
  /// `true` when `text` is `name` (in this comparison's sense).
  static func same(_ text: String, _ name: String) -> Bool
}

/// By representation: `true` when `text` is held as the same small string as `name` (up to 15 bytes
/// kept in the `String` value itself; one text has one small representation), compared word by word
/// without reading any byte or calling anything. `false` says nothing about a string held in a buffer.
enum ByRepresentation: NameComparison {
  @inline(__always) static func same(_ text: String, _ name: String) -> Bool { String.sameRepresentation(text, name) }
}

/// By bytes: the same sequence of Unicode scalars (``Swift/String/hasSameScalars(as:)``). Never `==`,
/// whose Unicode-aware slow path a difference takes (a `pong` tried against `ping`, an `end_of_file`
/// against `next_offset`).
enum ByBytes: NameComparison {
  @inline(__always) static func same(_ text: String, _ name: String) -> Bool { text.hasSameScalars(as: name) }
}
