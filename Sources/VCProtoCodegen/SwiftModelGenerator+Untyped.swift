import VCProtoCore
import VCProtoJSON

extension SwiftModelGenerator {
  /// A declared member the model gives only as JSON (``JSONValue`` or a raw ``JSONObject``), with the
  /// catalog's names: `owner` is a message type or a shape, `member` is `nil` for a whole shape whose
  /// model is a hand-written lossless wrapper.
  package struct UntypedMember: Sendable, Hashable, CustomStringConvertible {
    /// The message type or shape that declares the member.
    package var owner: String
    /// The member's JSON name; `nil` for a whole hand-written shape.
    package var member: String?

    /// `owner.member`, or `owner` for a whole shape.
    package var description: String { member.map { "\(owner).\($0)" } ?? owner }
  }

  /// Every declared member of any version that the model leaves untyped, in catalog order: the members
  /// of generated structs whose Swift type holds ``JSONValue`` (an `any`, or a `oneOf` the model
  /// cannot type) or a free-form ``JSONObject`` (an `object`), each hand-written shape as a whole, and
  /// the members of hand-written shapes whose declared type is itself untyped (`any`, `object` or such a
  /// `oneOf`).
  package var untypedMembers: [UntypedMember] {
    var out: [UntypedMember] = []
    func add(_ member: UntypedMember) { if !out.contains(member) { out.append(member) } }
    for (owner, variant) in generatedVariants {
      var g = self
      g.shapeNames = variant.shapeNames
      for field in variant.fields where Self.isUntyped(g.propertyType(field)) {
        add(UntypedMember(owner: owner, member: field.name))
      }
    }
    for shape in ProtocolCatalog.declaration.shapes where shape.handWrittenModel {
      add(UntypedMember(owner: shape.name, member: nil))
      for field in shape.fields where Self.isUntyped(swiftType(field.type)) {
        add(UntypedMember(owner: shape.name, member: field.name))
      }
    }
    return out
  }

  /// Whether a Swift type spelling holds raw JSON (``JSONValue`` or ``JSONObject``).
  package static func isUntyped(_ swiftType: String) -> Bool {
    swiftType.contains("JSONValue") || swiftType.contains("JSONObject")
  }
}
