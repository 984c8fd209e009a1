/// Writes JSON text deterministically: members in the order given, no insignificant whitespace,
/// `/` never escaped, non-ASCII written as raw UTF-8, and only `"`, `\` and control characters escaped
/// (`\b \f \n \r \t`, others as lowercase `\u00xx`).
public struct JSONWriter: @unchecked Sendable {
  // Sendable: a writer's storage is shared only by copies of it and written only by a writer that
  // holds the only reference (`room`), as an array's buffer is.
  //
  // The bytes live in `storage` (JSONWriter+Storage.swift: written through a pointer, room made once
  // per call); strings are escaped sixteen bytes at a time (JSONWriter+Escaping.swift).
  @usableFromInline package var storage: Storage
  @usableFromInline package var count = 0
  @usableFromInline package var capacity: Int

  /// Creates a writer, optionally reserving capacity.
  public init(reservingCapacity capacity: Int = 256) {
    storage = Storage.make(capacity: capacity)
    self.capacity = storage.header
  }

  /// Writes any JSON value.
  public mutating func write(_ value: JSONValue) {
    switch value {
    case .null: appendRaw("null")
    case .bool(let b): appendRaw(b ? "true" : "false")
    case .number(let n): appendUTF8(n.literal)
    case .string(let s): write(s)
    case .array(let a):
      appendByte(UInt8(ascii: "["))
      a.withUnsafeBufferPointer { elements in  // read in place (see writeMembers)
        for i in elements.indices {
          if i > 0 { appendByte(UInt8(ascii: ",")) }
          write(elements[i])
        }
      }
      appendByte(UInt8(ascii: "]"))
    case .object(let o): write(o)
    }
  }

  /// Writes a value kept as JSON text: its bytes, copied as they are.
  public mutating func write(_ raw: RawJSON) {
    raw.text.withUnsafeBytes { appendRaw($0) }
  }

  /// Writes an object with its members in order.
  public mutating func write(_ object: JSONObject) {
    appendByte(UInt8(ascii: "{"))
    writeMembers(object, first: true)
    appendByte(UInt8(ascii: "}"))
  }

  /// Writes a string literal with the minimal escaping described above.
  public mutating func write(_ string: String) {
    if string.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) == nil {
      var string = string
      string.withUTF8 { appendEscaped($0) }
    }
  }

  /// Appends the UTF-8 of `text`, which is already JSON (a number's literal).
  package mutating func appendUTF8(_ text: String) {
    if text.utf8.withContiguousStorageIfAvailable({ appendRaw(UnsafeRawBufferPointer($0)) }) == nil {
      var text = text
      text.withUTF8 { appendRaw(UnsafeRawBufferPointer($0)) }
    }
  }

  /// Writes a key (a string) followed by `:`; a leading `,` unless `first`.
  public mutating func writeKey(_ key: StaticString, first: Bool) {
    let size = key.utf8CodeUnitCount
    let out = room(size &+ 4)
    var o = 0
    if !first {
      out[0] = UInt8(ascii: ",")
      o = 1
    }
    out[o] = UInt8(ascii: "\"")
    (out + (o &+ 1)).initialize(from: key.utf8Start, count: size)
    o &+= size &+ 1
    out[o] = UInt8(ascii: "\"")
    out[o &+ 1] = UInt8(ascii: ":")
    count &+= o &+ 2
  }

  /// Writes an integer.
  public mutating func write(_ value: Int) {
    // The digits straight into the output, counted first, then stored from the last.
    let out = room(20)
    var magnitude = value.magnitude
    var digits = 1
    var rest = magnitude / 10
    while rest > 0 {
      digits &+= 1
      rest /= 10
    }
    let sign = value < 0 ? 1 : 0
    if sign == 1 { out[0] = UInt8(ascii: "-") }
    var i = sign &+ digits
    repeat {
      i &-= 1
      out[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
    count &+= sign &+ digits
  }

  /// Writes a boolean.
  public mutating func write(_ value: Bool) {
    appendRaw(value ? "true" : "false")
  }

  /// Writes `null`.
  public mutating func writeNull() {
    appendRaw("null")
  }
}

extension JSONValue {
  /// The value as compact JSON text (see ``JSONWriter`` for the exact rules).
  public var jsonText: String {
    var w = JSONWriter()
    w.write(self)
    return w.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }
}

extension JSONWriter {
  /// Writes `{`.
  public mutating func beginObject() { appendByte(UInt8(ascii: "{")) }
  /// Writes `}`.
  public mutating func endObject() { appendByte(UInt8(ascii: "}")) }
  /// Writes `[`.
  public mutating func beginArray() { appendByte(UInt8(ascii: "[")) }
  /// Writes `]`.
  public mutating func endArray() { appendByte(UInt8(ascii: "]")) }
  /// Writes `,`.
  public mutating func writeComma() { appendByte(UInt8(ascii: ",")) }

  /// Writes members of an object (without braces), preceded by `,` unless `first`.
  public mutating func writeMembers(_ object: JSONObject, first: Bool) {
    // Through a buffer pointer, so that the members are read in place rather than copied (each
    // copy retains the name and the value); each name goes out with its `,` and `:` in one call.
    object.members.withUnsafeBufferPointer { members in
      var first = first
      for i in members.indices {
        writeName(members[i].key, first: first)
        first = false
        write(members[i].value)
      }
    }
  }

  /// Writes `,"name":` (no `,` when `first`), `name` escaped.
  mutating func writeName(_ name: String, first: Bool) {
    if name.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, asName: true, first: first) }) == nil {
      var name = name
      name.withUTF8 { appendEscaped($0, asName: true, first: first) }
    }
  }
}
