import VCProtoJSON

/// A catalog shape the model keeps as raw JSON (``RawJSON``), prepared for the bytes reader, which
/// checks an object of it while scanning its bytes (`BytesReader+ScannedShape.swift`): each declared
/// member by its declaration (``ValueRules``), members of type `any` and undeclared members by a
/// validating scan that builds nothing, nested shapes the same way.
package final class ScannedShape: Sendable {
  /// How a declared member's value is checked. A plain value, nothing reference-counted in it (a
  /// nested shape is an unmanaged reference its owner keeps alive, element kinds are indices into
  /// the owner's ``kinds``), so that reading one from the shape during a scan retains and releases
  /// nothing: an indirect enum cost a retain and a release of its box for every member scanned.
  enum Kind: Sendable {
    /// Any JSON value: only that it is JSON.
    case any
    /// Any object.
    case object
    /// An object of a nested shape, scanned the same way (kept alive by the owner's ``nested``).
    case shape(Unmanaged<ScannedShape>)
    /// An array whose elements (never `null`) are checked as the owner's ``kinds`` at this index.
    case array(element: Int)
    /// The first alternative that accepts the value: the owner's ``kinds`` from `first`, `count` of them.
    case oneOf(first: Int, count: Int)
    /// Any string (no format to check).
    case plainText
    /// A value of the owner's ``types`` at this index (a scalar, or a shape nested too deep to prepare):
    /// parsed and checked by ``ValueRules`` (deep, in the modelled catalog).
    case parsed(Int)
  }

  /// The shape's declaration.
  let spec: ShapeSpec
  /// Its members, prepared for ``ValueRules``, in declaration order.
  let members: [ValueRules.PreparedMember]
  /// How each member's value is checked: member `i`'s at index `i`, then the kinds of array elements
  /// and alternatives (``Kind/array(element:)``, ``Kind/oneOf(first:count:)``).
  let kinds: [Kind]
  /// The types of ``Kind/parsed(_:)``.
  let types: [FieldType]
  /// The nested shapes ``Kind/shape(_:)`` refers to, kept alive by this one.
  private let nested: [ScannedShape]
  /// The members whose value may be `null`, by index bit.
  let nullable: UInt64
  /// The members with a closed set of allowed values (the rules need their value), by index bit.
  let closedSet: UInt64
  /// The members that may not be absent (``ValueRules/accepts(_:member:)`` refuses `nil`), by index bit.
  let absentRefused: UInt64
  /// Every member name's bytes in one buffer, and each member's slice of it.
  private let names: [UInt8]
  private let ranges: [(start: Int, count: Int)]

  /// Prepares `spec` of the modelled catalog; nested shapes `levels` deep (deeper ones are parsed).
  /// The bytes reader scans only shapes of fewer than 64 members (one bit each in the masks).
  init(_ spec: ShapeSpec, levels: Int = ValueRules.PreparedMember.nestingPrepared) {
    let catalog = ProtocolCatalog.modelled
    self.spec = spec
    members = spec.fields.map { ValueRules.PreparedMember($0, in: catalog) }
    var plan = Plan(count: spec.fields.count)
    for (i, field) in spec.fields.enumerated() { plan.kinds[i] = plan.kind(field.type, levels: levels) }
    kinds = plan.kinds
    types = plan.types
    nested = plan.nested
    var nullable: UInt64 = 0
    var closedSet: UInt64 = 0
    var absentRefused: UInt64 = 0
    for (i, member) in members.enumerated() where i < 64 {
      if member.field.nullable { nullable |= 1 << i }
      if member.field.allowedValues != nil { closedSet |= 1 << i }
      if !ValueRules.accepts(nil, member: member) { absentRefused |= 1 << i }
    }
    (self.nullable, self.closedSet, self.absentRefused) = (nullable, closedSet, absentRefused)
    var names: [UInt8] = []
    var ranges: [(start: Int, count: Int)] = []
    for f in spec.fields {
      ranges.append((names.count, f.name.utf8.count))
      names.append(contentsOf: f.name.utf8)
    }
    self.names = names
    self.ranges = ranges
  }

  /// The kinds, types and nested shapes of one shape while it is prepared.
  private struct Plan {
    var kinds: [Kind]
    var types: [FieldType] = []
    var nested: [ScannedShape] = []

    init(count: Int) { kinds = Array(repeating: .any, count: count) }

    mutating func kind(_ type: FieldType, levels: Int) -> Kind {
      switch type {
      case .any: return .any
      case .object: return .object
      case .shape(let name):
        guard levels > 0, let spec = ProtocolCatalog.modelled.shapes[name] else { return parsed(type) }
        let shape = ScannedShape(spec, levels: levels - 1)
        nested.append(shape)
        return .shape(Unmanaged.passUnretained(shape))
      case .array(let element):
        let index = kinds.count
        kinds.append(.any)
        kinds[index] = kind(element, levels: levels)
        return .array(element: index)
      case .oneOf(let alternatives):
        let first = kinds.count
        kinds.append(contentsOf: repeatElement(.any, count: alternatives.count))
        for (i, alternative) in alternatives.enumerated() { kinds[first + i] = kind(alternative, levels: levels) }
        return .oneOf(first: first, count: alternatives.count)
      case .string(.plain): return .plainText
      case .string, .integer, .number, .boolean: return parsed(type)
      }
    }

    private mutating func parsed(_ type: FieldType) -> Kind {
      types.append(type)
      return .parsed(types.count - 1)
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
