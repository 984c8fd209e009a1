import VCProtoCore
import VCProtoJSON

extension ConversationObserver {
  /// Whether ``protocolVersion`` comes from this connection's handshake (a `hello` of a version the
  /// catalog knows was seen), rather than from the fallback the observer was created with.
  package var versionFromHandshake: Bool { version.fromHandshake }

  /// Whether the fallback version was the caller's choice (`vcproto validate --protocol`) rather than
  /// a default.
  package var fallbackIsExplicit: Bool { version.explicit }
}
