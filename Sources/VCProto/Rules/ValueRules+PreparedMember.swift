extension ValueRules {
  /// A declared member made ready for checking many values against it: the catalog it is checked in
  /// and, when its type is a shape the catalog declares, that shape's declaration, each looked up once
  /// instead of for every value. The rules themselves stay in ``ValueRules/checkMember(_:_:in:shape:into:)``;
  /// this only saves the look-ups and the copies of the ``FieldSpec`` (a class, so a hot loop passes a
  /// reference).
  final class PreparedMember: Sendable {
    /// The member's declaration.
    let field: FieldSpec
    /// The catalog nested shapes are checked in (`nil`: only their JSON type is checked).
    let catalog: ProtocolCatalog?
    /// `catalog`'s declaration of the shape the member's type names, when it is a declared shape.
    let shape: ShapeSpec?

    /// Prepares `field` for checks in `catalog`.
    init(_ field: FieldSpec, in catalog: ProtocolCatalog?) {
      self.field = field
      self.catalog = catalog
      if case .shape(let name) = field.type { shape = catalog?.shapes[name] } else { shape = nil }
    }
  }

  /// A declared member satisfies every rule of its prepared declaration: the same verdict as
  /// ``accepts(_:member:deep:)`` with the member's declaration and catalog.
  @inline(__always)
  static func accepts(_ value: JSONValue?, member prepared: PreparedMember) -> Bool {
    var verdict = RuleBreak()
    checkMember(value, prepared.field, in: prepared.catalog, shape: prepared.shape, into: &verdict)
    return !verdict.hasErrors
  }
}
