import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The catalog's conversation facts checked against the independent oracle, the reference catalogs
/// of the real system in Reference/ (written from its source, not from vcproto's catalog): each
/// version's answers and refusal types of a request are among the frames the real server sends for
/// it, what crosses before authentication is what its `auth_required` says, and `connect`'s
/// `recent_sessions_limit` default is the real one.
@Suite struct EngineFactsReferenceTests {
  /// The `messages` of `Reference/catalog-<version>.json`, by type and direction.
  static func reference(_ version: ProtocolVersion) throws -> [String: [String: Any]] {
    let url = StandardsContentsTests.root.appendingPathComponent("Reference/catalog-\(version).json")
    let catalog = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var messages: [String: [String: Any]] = [:]
    for case let message as [String: Any] in catalog["messages"] as? [Any] ?? [] {
      guard let type = message["type"] as? String, let direction = message["direction"] as? String else { continue }
      messages["\(direction)/\(type)"] = message
    }
    return messages
  }

  /// The frame types the reference says the server sends for a request: the first word of each
  /// `responses` entry (`"session_killed {session_id, ...}"`) and the `type` of each `errors` entry.
  static func sentFor(_ message: [String: Any]) -> Set<String> {
    var types: Set<String> = []
    for case let response as String in message["responses"] as? [Any] ?? [] {
      if let word = response.split(whereSeparator: { $0 == " " || $0 == "*" || $0 == "(" }).first {
        types.insert(String(word))
      }
    }
    for case let error as [String: Any] in message["errors"] as? [Any] ?? [] {
      if let type = error["type"] as? String { types.insert(type) }
    }
    return types
  }

  @Test(arguments: ProtocolVersion.allCases) func answersAndRefusalTypesAreSentByTheRealServer(
    _ version: ProtocolVersion
  ) throws {
    let reference = try Self.reference(version)
    var checked = 0
    for spec in ProtocolCatalog.catalog(version).messages(.clientToServer) where !spec.answers.isEmpty {
      let message = try #require(reference["client_to_server/\(spec.type)"], "\(version) \(spec.type) in Reference")
      let sent = Self.sentFor(message)
      for type in spec.answers + spec.refusalTypes {
        #expect(sent.contains(type), "\(version) \(spec.type): the real server never sends \(type) for it")
        checked += 1
      }
    }
    #expect(checked >= 16, "\(checked) answer types checked")
  }

  @Test(arguments: ProtocolVersion.allCases) func beforeAuthenticationIsTheRealServers(_ version: ProtocolVersion)
    throws
  {
    let reference = try Self.reference(version)
    var checked = 0
    for spec in ProtocolCatalog.catalog(version).messages(.clientToServer) where spec.status != .extension {
      guard let required = reference["client_to_server/\(spec.type)"]?["auth_required"] as? Bool else { continue }
      #expect(spec.requiresAuthentication == required, "\(version) \(spec.type)")
      checked += 1
    }
    #expect(checked >= 20, "\(checked) types checked")
  }

  @Test(arguments: ProtocolVersion.allCases) func recentSessionsLimitDefaultIsTheRealOne(_ version: ProtocolVersion)
    throws
  {
    let reference = try #require(try Self.reference(version)["client_to_server/connect"])
    let fields = reference["fields"] as? [[String: Any]] ?? []
    let real = try #require(fields.first { $0["name"] as? String == "recent_sessions_limit" }?["default"] as? Int)
    let declared = ProtocolCatalog.catalog(version).message("connect")?.field("recent_sessions_limit")
    #expect(declared?.defaultValue?.intValue == real)
    #expect(declared?.clamp?.contains(Int64(real)) == true, "the real default lies within the clamp")
  }
}
