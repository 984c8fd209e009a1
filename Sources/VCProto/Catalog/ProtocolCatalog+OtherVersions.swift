extension ProtocolCatalog {
  /// Types that exist in real protocol versions vcproto does not model yet, with the version that
  /// introduced them. A frame of one of these types is `not_in_version` (an error), not `unknown_type`.
  public static let typesOfUnmodelledVersions: [String: String] = [
    "supervisor_message": "0.3.0",
    "canvas_action": "0.3.0",
    "canvas_update": "0.3.0",
    "tts_speak": "0.3.0",
    "supervisor_thinking": "0.3.0",
    "connect_ack": "0.4.0",
  ]
}
