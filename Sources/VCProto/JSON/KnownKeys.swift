/// Member names that occur in nearly every frame, each made into a `String` once.
///
/// Making a `String` from bytes validates and copies them; a member name the table knows is instead
/// matched byte for byte and its ready-made `String` returned. The table holds every member name the
/// catalogs declare plus the keys of Claude Code's content blocks (passed through in raw records).
/// A name it does not know is read the ordinary way: the table changes speed, never results.
enum KnownKeys {
  /// Names longer than this are never looked up.
  static let maxLength = 32

  /// Keys of Claude Code message content blocks and usage objects, which the catalog does not declare
  /// (raw records are passed through), but which fill `session_history` frames.
  static let contentBlockKeys = [
    "id", "name", "input", "text", "type", "tool_use_id", "content", "is_error", "thinking", "signature",
    "model", "usage", "stop_reason", "stop_sequence", "input_tokens", "output_tokens", "command", "description",
    "cache_creation_input_tokens", "cache_read_input_tokens", "userType", "version", "gitBranch", "requestId",
  ]

  /// The table, laid out once and never freed: every name's bytes one after another (`blob`), where
  /// each name starts (`offsets`), the names of length n as entries `byLength[n] ..< byLength[n + 1]`,
  /// and the ready-made Strings. Plain memory, so a lookup takes no reference counts.
  private struct Table: @unchecked Sendable {
    let blob: UnsafeMutableBufferPointer<UInt8>
    let offsets: UnsafeMutableBufferPointer<Int>
    let byLength: UnsafeMutableBufferPointer<Int>
    let strings: UnsafeMutableBufferPointer<String>
  }

  private static let table: Table = {
    var names = Set(contentBlockKeys)
    for catalog in ProtocolCatalog.all {
      for message in catalog.messages { for f in message.fields { names.insert(f.name) } }
      for shape in catalog.shapes.values { for f in shape.fields { names.insert(f.name) } }
    }
    let sorted = names.filter { $0.utf8.count <= maxLength }.sorted { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
    var blob: [UInt8] = []
    var offsets: [Int] = []
    var byLength: [Int] = []
    var next = 0
    for length in 0...(maxLength + 1) {
      byLength.append(next)
      while next < sorted.count, sorted[next].utf8.count == length {
        offsets.append(blob.count)
        blob.append(contentsOf: sorted[next].utf8)
        next += 1
      }
    }
    func permanent<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
      let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, array.count))
      _ = buffer.initialize(from: array)
      return buffer
    }
    return Table(
      blob: permanent(blob), offsets: permanent(offsets), byLength: permanent(byLength), strings: permanent(sorted))
  }()

  /// The known name whose bytes are `count` bytes at `start`, or `nil`.
  @inline(__always)
  static func lookup(_ start: UnsafePointer<UInt8>, _ count: Int) -> String? {
    guard count > 0, count <= maxLength else { return nil }
    let t = table
    guard let base = t.blob.baseAddress else { return nil }
    let first = start[0]
    for i in t.byLength[count]..<t.byLength[count + 1] {
      let name = base + t.offsets[i]
      guard name[0] == first else { continue }
      var k = 1
      while k < count, name[k] == start[k] { k += 1 }
      if k == count { return t.strings[i] }
    }
    return nil
  }
}
