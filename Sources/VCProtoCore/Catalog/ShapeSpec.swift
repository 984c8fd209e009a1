import VCProtoJSON

/// A named object shape nested inside messages (a session summary, a command node, ...).
public struct ShapeSpec: Sendable, Hashable {
  /// What the validator does with members the shape does not declare.
  public enum ExtraMembers: String, Sendable, Hashable {
    /// Report each as an `unexpected_field` warning (and keep it for the round trip).
    case warn
    /// Accept silently: the object is pass-through data (raw Claude Code records).
    case allow
  }

  /// The shape's name, also the Swift type name of its model struct.
  public var name: String
  /// The declared members.
  public var fields: [FieldSpec]
  /// Handling of undeclared members.
  public var extraMembers: ExtraMembers
  /// `true` when the Swift model is a hand-written lossless wrapper rather than a generated struct.
  public var handWrittenModel: Bool
  /// What the shape is.
  public var doc: String

  /// Creates a shape.
  public init(
    _ name: String, doc: String, extraMembers: ExtraMembers = .warn, handWrittenModel: Bool = false,
    fields: [FieldSpec]
  ) {
    self.name = name
    self.fields = fields
    self.extraMembers = extraMembers
    self.handWrittenModel = handWrittenModel
    self.doc = doc
  }

  /// The field named `name` (the same Unicode scalars), if declared.
  public func field(_ name: String) -> FieldSpec? {
    fields.first { $0.name.hasSameScalars(as: name) }
  }
}
