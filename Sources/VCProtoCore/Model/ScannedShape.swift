import VCProtoJSON

/// A catalog shape the model keeps as raw JSON (``RawJSON``), prepared for the bytes reader, which
/// checks an object of it while scanning its bytes (`BytesReader+ScannedShape.swift`): each declared
/// member by its declaration (``ValueRules``), members of type `any` and undeclared members by a
/// validating scan that builds nothing, nested shapes the same way.
package final class ScannedShape: Sendable {
  /// How a declared member's value is checked.
  indirect enum Kind: Sendable {
    /// Any JSON value: only that it is JSON.
    case any
    /// Any object.
    case object
    /// An object of a nested shape, scanned the same way.
    case shape(ScannedShape)
    /// An array whose elements (never `null`) are checked as `Kind`.
    case array(Kind)
    /// The first alternative that accepts the value.
    case oneOf([Kind])
    /// A value of this type (a scalar, or a shape nested too deep to prepare): parsed and checked by
    /// ``ValueRules`` (deep, in the modelled catalog).
    case parsed(FieldType)
  }

  /// The shape's declaration.
  let spec: ShapeSpec
  /// Its members, prepared for ``ValueRules``, in declaration order.
  let members: [ValueRules.PreparedMember]
  /// How each member's value is checked (the same order).
  let kinds: [Kind]
  /// Every member name's bytes in one buffer, and each member's slice of it.
  private let names: [UInt8]
  private let ranges: [(start: Int, count: Int)]

  /// Prepares `spec` of the modelled catalog; nested shapes `levels` deep (deeper ones are parsed).
  init(_ spec: ShapeSpec, levels: Int = ValueRules.PreparedMember.nestingPrepared) {
    let catalog = ProtocolCatalog.modelled
    self.spec = spec
    members = spec.fields.map { ValueRules.PreparedMember($0, in: catalog) }
    kinds = spec.fields.map { Self.kind($0.type, levels: levels) }
    var names: [UInt8] = []
    var ranges: [(start: Int, count: Int)] = []
    for f in spec.fields {
      ranges.append((names.count, f.name.utf8.count))
      names.append(contentsOf: f.name.utf8)
    }
    self.names = names
    self.ranges = ranges
  }

  private static func kind(_ type: FieldType, levels: Int) -> Kind {
    switch type {
    case .any: return .any
    case .object: return .object
    case .shape(let name):
      guard levels > 0, let spec = ProtocolCatalog.modelled.shapes[name] else { return .parsed(type) }
      return .shape(ScannedShape(spec, levels: levels - 1))
    case .array(let element): return .array(kind(element, levels: levels))
    case .oneOf(let alternatives): return .oneOf(alternatives.map { kind($0, levels: levels) })
    case .string, .integer, .number, .boolean: return .parsed(type)
    }
  }

  /// The index of the declared member whose name is `key`, if any.
  @inline(__always)
  func member<R: ModelReader>(_ key: R.Key, in r: R) -> Int? {
    let length = r.length(of: key)
    return names.withUnsafeBufferPointer { names -> Int? in
      for i in 0..<ranges.count where ranges[i].count == length {
        if r.keyIs(key, UnsafeBufferPointer(rebasing: names[ranges[i].start..<(ranges[i].start + length)])) {
          return i
        }
      }
      return nil
    }
  }
}
