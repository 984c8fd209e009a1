import VCProtoJSON

/// The handshake's rules beyond its members' declarations: they depend on the connection (its
/// version, the bound on list lengths), not on the frame alone (STANDARDS.md#connection-flow and
/// STANDARDS.md#negotiation).
///
/// Stated here once: the ``Validator`` applies them to a parsed frame (and explains a broken one), the
/// generated decoder of the handshake messages (`reading(_:typeConsumed:version:)`) calls the
/// same predicates on the values it reads, so the two cannot disagree.
package enum HandshakeRules {
  /// A rule on a version string that a handshake member carries.
  package enum VersionRule: Sendable {
    /// `hello.version` is the server's ceiling: on a connection of version V it is a version no lower
    /// than V. A 0.2.0 connection is not checked (0.2.0 servers spoke only 0.2.0); a value that does
    /// not parse is the member's format's concern, not this rule's.
    case ceiling
    /// `connect.protocol_version`: from 0.4.0 on the real server refuses a client announcing a version
    /// that parses (as the server parses it) and is below 0.4.0 (`unsupported_protocol_version`),
    /// before it checks the key. An unparseable announcement gets the floor, so it passes.
    case announcedAtLeastFloor
  }

  /// The version rule of the member `member` of the handshake message `type`, if it has one.
  package static func versionRule(type: String, member: String) -> VersionRule? {
    switch (type, member) {
    case ("hello", "version"): return .ceiling
    case ("connect", "protocol_version"): return .announcedAtLeastFloor
    default: return nil
    }
  }

  /// `true` for the message types that have a version rule (the validator looks no further for others).
  @inline(__always)
  package static func hasVersionRules(_ type: String) -> Bool { type == "hello" || type == "connect" }

  /// A version string satisfies `rule` on a connection of version `connection`.
  package static func accepts(_ text: String, _ rule: VersionRule, connection: ProtocolVersion) -> Bool {
    switch rule {
    case .ceiling:
      guard connection > .v0_2_0, let ceiling = VersionNumber(text) else { return true }
      return ceiling >= connection.number
    case .announcedAtLeastFloor:
      guard connection >= .v0_4_0, let announced = VersionNumber(announced: text) else { return true }
      return announced >= .oldestAccepted
    }
  }

  /// A list member of a handshake message holds no more than `limit` entries
  /// (``ValidationOptions/maxHandshakeListItems``), so that negotiation never spends time on a list of
  /// 100,000 versions or capabilities.
  @inline(__always)
  package static func accepts(listCount count: Int, limit: Int) -> Bool { count <= limit }
}
