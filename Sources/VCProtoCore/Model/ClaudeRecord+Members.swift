import VCProtoJSON

extension ClaudeRecord {
  /// `parentUuid`: the UUID of the record this one follows; `nil` when absent or null (the first
  /// record of a session has a null parent).
  public var parentUuid: String? { raw["parentUuid"]?.stringValue }
  /// `sessionId`: the Claude session the record belongs to.
  public var sessionId: String? { raw["sessionId"]?.stringValue }
  /// `cwd`: the working directory the record was written in.
  public var cwd: String? { raw["cwd"]?.stringValue }
  /// `isSidechain`: whether the record belongs to a side conversation (a sub-agent's).
  public var isSidechain: Bool? { raw["isSidechain"]?.boolValue }
  /// `toolUseResult`: what a tool returned, in the tool's own form (any JSON: the catalog declares no
  /// shape for it).
  public var toolUseResult: JSONValue? { raw["toolUseResult"] }
}
