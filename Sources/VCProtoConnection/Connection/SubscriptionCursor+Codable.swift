import VCProtoCore
import VCProtoJSON

/// A cursor through `Codable`, as the members of the `subscribe` that resumes from it:
/// `{"last_message_id": "…"}` (0.2.0, 0.3.0), `{"last_seq": 42}` (0.4.0), or
/// `{"from_offset": 120, "file_signature_seen": "…"}` (0.5.0; the signature omitted when `nil`).
///
/// Decoding takes exactly one of those forms: any other member, or none, is a `DecodingError`.
extension SubscriptionCursor: Codable {
  /// The members of a stored cursor: `subscribe`'s.
  enum CodingKeys: String, CodingKey, CaseIterable {
    case lastMessageId = "last_message_id"
    case lastSeq = "last_seq"
    case fromOffset = "from_offset"
    case fileSignatureSeen = "file_signature_seen"
  }

  /// Writes the cursor as the members of its `subscribe`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .lastMessageId(let id): try container.encode(id, forKey: .lastMessageId)
    case .lastSeq(let seq): try container.encode(seq, forKey: .lastSeq)
    case .offset(let offset, let signature):
      try container.encode(offset, forKey: .fromOffset)
      try container.encodeIfPresent(signature, forKey: .fileSignatureSeen)
    }
  }

  /// Reads a cursor written by ``encode(to:)``; throws `DecodingError.dataCorrupted` for any other
  /// set of members.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: JSONCodingKey.self)
    let names = Set(container.allKeys.map(\.stringValue))
    let keyed = try decoder.container(keyedBy: CodingKeys.self)
    switch names {
    case [CodingKeys.lastMessageId.rawValue]:
      self = .lastMessageId(try keyed.decode(String.self, forKey: .lastMessageId))
    case [CodingKeys.lastSeq.rawValue]:
      self = .lastSeq(try keyed.decode(Int.self, forKey: .lastSeq))
    case [CodingKeys.fromOffset.rawValue], [CodingKeys.fromOffset.rawValue, CodingKeys.fileSignatureSeen.rawValue]:
      self = .offset(
        try keyed.decode(Int.self, forKey: .fromOffset),
        signature: try keyed.decodeIfPresent(String.self, forKey: .fileSignatureSeen))
    default:
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription:
            "a subscription cursor has last_message_id, last_seq, or from_offset with an optional"
            + " file_signature_seen; found \(names.count) member(s): \(Self.shown(names))"))
    }
  }

  /// Up to eight member names, each cut at 40 characters (a stored value is not trusted to be small).
  private static func shown(_ names: Set<String>) -> String {
    names.sorted().prefix(8).map { $0.count > 40 ? $0.prefix(40) + "…" : Substring($0) }.joined(separator: ", ")
  }
}
