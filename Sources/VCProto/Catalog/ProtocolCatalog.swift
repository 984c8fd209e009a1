/// The protocol of one version, declared once: every message type with its fields, every nested shape.
///
/// The typed model (generated from it), the validator, `Schema/` and the field tables in STANDARDS.md
/// all derive from this declaration; tests check that they agree. A later version (0.3.0-0.5.0) is a
/// second catalog value built from the same types.
public struct ProtocolCatalog: Sendable {
  /// The protocol version, e.g. `0.2.0`.
  public var version: String
  /// All message types, client-to-server first, in specification order.
  public var messages: [MessageSpec]
  /// Named object shapes, by name.
  public var shapes: [String: ShapeSpec]
  /// Shape names in specification order (for deterministic output).
  public var shapeOrder: [String]

  private var index: [String: Int]

  /// Creates a catalog.
  public init(version: String, messages: [MessageSpec], shapes: [ShapeSpec]) {
    self.version = version
    self.messages = messages
    self.shapes = Dictionary(uniqueKeysWithValues: shapes.map { ($0.name, $0) })
    self.shapeOrder = shapes.map(\.name)
    var index: [String: Int] = [:]
    for (i, m) in messages.enumerated() { index[m.type] = i }
    self.index = index
  }

  /// The spec of a message type, or `nil` when the version does not define it.
  public func message(_ type: String) -> MessageSpec? {
    index[type].map { messages[$0] }
  }

  /// The message types sent in one direction.
  public func messages(_ direction: MessageDirection) -> [MessageSpec] {
    messages.filter { $0.direction == direction }
  }

  /// Every protocol version vcproto knows, oldest first.
  public static let all: [ProtocolCatalog] = [.v0_2_0]

  /// The catalog of a version string, or `nil` when vcproto does not know it.
  public static func version(_ version: String) -> ProtocolCatalog? {
    all.first { $0.version == version }
  }

  /// The newest version vcproto knows.
  public static var latest: ProtocolCatalog { .v0_2_0 }

  /// The version string of ``latest``, the version the generated model is built from.
  public static let latestVersion = latest.version
}
