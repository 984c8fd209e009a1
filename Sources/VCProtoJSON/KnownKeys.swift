/// What a caller knows about member names: those that occur in nearly every text, each made into a
/// `String` once (VCProtoCore's table holds the catalog's member names), and how a name is quoted in
/// an error (VCProtoCore masks what looks like a secret).
///
/// Making a `String` from bytes validates and copies them; a member name the table knows is instead
/// matched byte for byte and its ready-made `String` returned. A name it does not know is read the
/// ordinary way: the table changes speed, never results.
@usableFromInline package struct KnownKeys: @unchecked Sendable {
  /// Names longer than this are never looked up.
  package static let maxLength = 32

  /// The table, laid out once and never freed: every name's bytes one after another (`blob`), where
  /// each name starts (`offsets`), the names of length n as entries `byLength[n] ..< byLength[n + 1]`,
  /// the ready-made Strings, and how names are quoted in errors. Plain memory, so a lookup takes no
  /// reference counts.
  private struct Table {
    let blob: UnsafeMutableBufferPointer<UInt8>
    let offsets: UnsafeMutableBufferPointer<Int>
    let byLength: UnsafeMutableBufferPointer<Int>
    let strings: UnsafeMutableBufferPointer<String>
    let quote: @Sendable (String) -> String
  }

  /// Where the table lies: a bare pointer, so that a `KnownKeys` is copied and dropped as a plain
  /// value (no reference count taken per reader; every `JSONParser` holds one).
  private let table: UnsafePointer<Table>

  /// Quotes a member name in an error's detail (a duplicate key).
  package func quote(_ name: String) -> String { table.pointee.quote(name) }

  /// No names, and names quoted cut to 60 Unicode scalars.
  @usableFromInline package static let none = KnownKeys(names: [], quote: { cut($0, limit: 60) })

  /// `text` with at most `limit` Unicode scalars, then `…` when something was left off.
  package static func cut(_ text: String, limit: Int) -> String {
    let scalars = text.unicodeScalars
    guard let end = scalars.index(scalars.startIndex, offsetBy: max(0, limit), limitedBy: scalars.endIndex),
      end != scalars.endIndex
    else { return text }
    return String(scalars[..<end]) + "…"
  }

  /// A table of `names` (those longer than ``maxLength`` bytes are left out), quoting names in errors
  /// with `quote`. Its memory is never freed: make one per process, as a `static let`.
  package init(names: some Sequence<String>, quote: @escaping @Sendable (String) -> String) {
    let sorted = Set(names).filter { $0.utf8.count <= Self.maxLength }.sorted {
      ($0.utf8.count, $0) < ($1.utf8.count, $1)
    }
    var blob: [UInt8] = []
    var offsets: [Int] = []
    var byLength: [Int] = []
    var next = 0
    for length in 0...(Self.maxLength + 1) {
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
    let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
    table.initialize(
      to: Table(
        blob: permanent(blob), offsets: permanent(offsets), byLength: permanent(byLength),
        strings: permanent(sorted), quote: quote))
    self.table = UnsafePointer(table)
  }

  /// The known name whose bytes are `count` bytes at `start`, or `nil`.
  @usableFromInline @inline(__always)
  package func lookup(_ start: UnsafePointer<UInt8>, _ count: Int) -> String? {
    guard count > 0, count <= Self.maxLength else { return nil }
    let t = table
    guard let base = t.pointee.blob.baseAddress else { return nil }
    let first = start[0]
    for i in t.pointee.byLength[count]..<t.pointee.byLength[count + 1] {
      let name = base + t.pointee.offsets[i]
      guard name[0] == first else { continue }
      var k = 1
      while k < count, name[k] == start[k] { k += 1 }
      if k == count { return t.pointee.strings[i] }
    }
    return nil
  }
}
