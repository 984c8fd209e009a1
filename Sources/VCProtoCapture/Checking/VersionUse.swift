import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// Which protocol version a frame was checked against, and why: what `validate`'s summary reports
/// (`protocol 0.5.0 (announced by the handshake)`).
package struct VersionUse: Sendable, Hashable {
  /// Where the version came from.
  enum Origin: String, Sendable, CaseIterable, Comparable {
    /// The connection's handshake (`hello`, `connect`, `connected`, a refusal).
    case handshake
    /// `--protocol`, for a connection without a handshake.
    case option = "protocol_option"
    /// Neither: the default, ``CaptureValidator/defaultProtocolVersion``.
    case assumed = "default"

    /// How the summary line says it.
    var reason: String {
      switch self {
      case .handshake: "announced by the handshake"
      case .option: "given by --protocol"
      case .assumed: "assumed default: no handshake, no --protocol"
      }
    }

    static func < (a: Origin, b: Origin) -> Bool {
      allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
  }

  /// The version the frame was checked against.
  var version: ProtocolVersion
  /// Why that one.
  var origin: Origin

  /// The use of a frame checked against `version` by a connection whose conversation is `observer`.
  init(version: ProtocolVersion, observer: ConversationObserver) {
    self.version = version
    if observer.versionFromHandshake {
      origin = .handshake
    } else {
      origin = observer.fallbackIsExplicit ? .option : .assumed
    }
  }

  init(version: ProtocolVersion, origin: Origin) {
    self.version = version
    self.origin = origin
  }

  /// `protocol 0.5.0 (announced by the handshake)`, or for several uses
  /// `protocol 0.4.0, 0.5.0 (announced by the handshake), 0.2.0 (given by --protocol)`; `nil` when
  /// no frame was checked.
  static func summary(_ uses: some Collection<VersionUse>) -> String? {
    guard !uses.isEmpty else { return nil }
    let groups = Dictionary(grouping: uses, by: \.origin).sorted { $0.key < $1.key }
    return "protocol "
      + groups.map { origin, uses in
        uses.map(\.version).sorted().map(\.rawValue).joined(separator: ", ") + " (\(origin.reason))"
      }.joined(separator: ", ")
  }
}
