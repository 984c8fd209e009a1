import VCProtoJSON

extension ValueRules {
  /// A declared member made ready for checking many values against it: the catalog it is checked in
  /// and, when its type is a shape the catalog declares, that shape's members prepared the same way,
  /// each looked up once instead of for every value. The rules themselves stay in
  /// ``ValueRules/checkMember(_:_:in:shape:into:)``; this only saves the look-ups and the copies of the
  /// ``FieldSpec`` (a class, so a hot loop passes a reference).
  package final class PreparedMember: Sendable {
    /// How many levels of directly nested shapes are prepared; deeper ones (a shape that contains
    /// itself) are looked up by name as they are met, exactly as without preparation.
    package static let nestingPrepared = 4

    /// The member's declaration.
    package let field: FieldSpec
    /// The catalog nested shapes are checked in (`nil`: only their JSON type is checked).
    package let catalog: ProtocolCatalog?
    /// `catalog`'s declaration of the shape the member's type names, with its members prepared, when
    /// it is a declared shape.
    package let shape: PreparedShape?

    /// Prepares `field` for checks in `catalog`, with nested shapes prepared `levels` deep.
    package init(_ field: FieldSpec, in catalog: ProtocolCatalog?, levels: Int = nestingPrepared) {
      self.field = field
      self.catalog = catalog
      if levels > 0, case .shape(let name) = field.type, let catalog, let spec = catalog.shapes[name] {
        shape = PreparedShape(spec, in: catalog, levels: levels - 1)
      } else {
        shape = nil
      }
    }
  }

  /// A shape's declaration with each of its members prepared (``PreparedMember``), for the walk of a
  /// nested object without copying each member's ``FieldSpec``.
  package final class PreparedShape: Sendable {
    /// The shape's declaration.
    package let spec: ShapeSpec
    /// `spec.fields`, prepared, in declaration order.
    package let members: [PreparedMember]

    /// Prepares `spec`'s members for checks in `catalog`, nested shapes `levels` deep.
    package init(_ spec: ShapeSpec, in catalog: ProtocolCatalog, levels: Int) {
      self.spec = spec
      self.members = spec.fields.map { PreparedMember($0, in: catalog, levels: levels) }
    }
  }

  /// A declared member satisfies every rule of its prepared declaration: the same verdict as
  /// ``accepts(_:member:deep:)`` with the member's declaration and catalog.
  @inline(__always)
  package static func accepts(_ value: JSONValue?, member prepared: PreparedMember) -> Bool {
    var verdict = RuleBreak()
    checkMember(value, prepared.field, in: prepared.catalog, shape: prepared.shape, into: &verdict)
    return !verdict.hasErrors
  }
}

/// A member declaration ``ValueRules/checkMembers(_:fields:extra:owner:skipping:in:into:)`` walks: a
/// plain ``FieldSpec`` or one prepared once for many checks (``ValueRules/PreparedMember``). Both lead
/// to the same ``ValueRules/checkMember(_:_:in:shape:into:)``.
package protocol MemberDeclaration {
  /// The member name.
  var name: String { get }
  /// Walks one value (`nil`: the member is absent) of this declaration.
  func check<Sink: ValueRuleSink>(_ value: JSONValue?, in catalog: ProtocolCatalog?, into sink: inout Sink)
}

extension FieldSpec: MemberDeclaration {
  @inline(__always)
  package func check<Sink: ValueRuleSink>(_ value: JSONValue?, in catalog: ProtocolCatalog?, into sink: inout Sink) {
    ValueRules.checkMember(value, self, in: catalog, into: &sink)
  }
}

extension ValueRules.PreparedMember: MemberDeclaration {
  package var name: String { field.name }

  /// Checks in the catalog the member was prepared for (the walk's `catalog` is the same one).
  @inline(__always)
  package func check<Sink: ValueRuleSink>(_ value: JSONValue?, in _: ProtocolCatalog?, into sink: inout Sink) {
    ValueRules.checkMember(value, field, in: catalog, shape: shape, into: &sink)
  }
}
