import VCProtoJSON

/// The protocol of one version: every message type with its fields, every nested shape.
///
/// A catalog is a projection of the one ``ProtocolDeclaration`` (``ProtocolCatalog/declaration``), which
/// declares all versions at once. The typed model, the validator, `Schema/` and the field tables in
/// STANDARDS.md all derive from the declaration; tests check that they agree. A catalog's contents are
/// fixed once built (its index must match its messages).
public struct ProtocolCatalog: Sendable {
  /// The protocol version, e.g. `0.4.0`.
  public let version: String
  /// All message types, client-to-server first, in specification order.
  public let messages: [MessageSpec]
  /// Named object shapes, by name.
  public let shapes: [String: ShapeSpec]
  /// Shape names in specification order (for deterministic output).
  public let shapeOrder: [String]

  /// Position of each type in ``messages``, keyed by the type's exact Unicode scalars: Swift's
  /// `String` hashing and `==` are canonical equivalence, which would let a `type` spelled with other
  /// scalars (U+0340 for U+0300) find a message it does not name.
  private let index: [ExactString: Int]

  /// The version as a ``ProtocolVersion`` (`nil` only for a catalog a test built by hand); worked out once,
  /// since the decoder asks for it on every frame.
  public let knownVersion: ProtocolVersion?

  /// Creates a catalog (a projection of the declaration, or a test's own).
  package init(version: String, messages: [MessageSpec], shapes: [ShapeSpec]) {
    self.version = version
    self.messages = messages
    self.shapes = Dictionary(uniqueKeysWithValues: shapes.map { ($0.name, $0) })
    self.shapeOrder = shapes.map(\.name)
    var index: [ExactString: Int] = [:]
    for (i, m) in messages.enumerated() { index[ExactString(m.type)] = i }
    self.index = index
    self.knownVersion = ProtocolVersion(rawValue: version)
  }

  /// The spec of a message type, or `nil` when the version does not define it. Types match only when
  /// they are the same sequence of Unicode scalars (as member names do, STANDARDS.md#exact-member-names), never
  /// by canonical equivalence.
  public func message(_ type: String) -> MessageSpec? {
    index[ExactString(type)].map { messages[$0] }
  }

  /// The message types sent in one direction.
  public func messages(_ direction: MessageDirection) -> [MessageSpec] {
    messages.filter { $0.direction == direction }
  }

  /// Protocol 0.2.0 (the real backend at its 2026-01-11 state) with vcproto's extensions.
  public static let v0_2_0 = declaration.projection(.v0_2_0)
  /// Protocol 0.3.0 (the real backend of 2026-04-20/21) with vcproto's extensions.
  public static let v0_3_0 = declaration.projection(.v0_3_0)
  /// Protocol 0.4.0 as the real server speaks it today on a channel negotiated to 0.4.0, with extensions.
  public static let v0_4_0 = declaration.projection(.v0_4_0)
  /// Protocol 0.5.0 as the real server speaks it today on a channel negotiated to 0.5.0, with extensions.
  public static let v0_5_0 = declaration.projection(.v0_5_0)

  /// Every protocol version vcproto knows, oldest first.
  public static let all: [ProtocolCatalog] = [.v0_2_0, .v0_3_0, .v0_4_0, .v0_5_0]

  /// The catalog of a known version.
  public static func catalog(_ version: ProtocolVersion) -> ProtocolCatalog {
    all[version.ordinal]
  }

  /// The catalog of a version string, or `nil` when vcproto does not know it.
  public static func version(_ version: String) -> ProtocolCatalog? {
    ProtocolVersion(rawValue: version).map(catalog)
  }

  /// The newest version vcproto knows.
  public static var latest: ProtocolCatalog { catalog(.newest) }

  /// The version whose catalog the hand-written parts of the model check against: the raw Claude
  /// record shapes, which are the same in every version. (The generated model covers every version.)
  package static let modelVersion = ProtocolVersion.v0_2_0

  /// The catalog of ``modelVersion``.
  package static var modelled: ProtocolCatalog { catalog(modelVersion) }

  /// The versions that have `type` as a real message type, for findings that name them.
  public static func versions(ofType type: String) -> VersionSet {
    declaration.versions(ofType: type)
  }
}
