import VCProtoJSON

extension MessageDecoder {
  /// The type and direction of a frame ``decodeIfClean(_:)`` accepts, `nil` exactly when it returns
  /// `nil`: the same generated decoders check every rule over ``CheckingReader``, which makes no
  /// String of a member no rule looks at, and the message is dropped here. What a checker that needs
  /// only the verdict of clean frames (`vcproto validate`) asks first.
  package func cleanFrame(_ bytes: [UInt8]) -> (type: String, direction: MessageDirection)? {
    switch directRead(bytes, clean: true, stats: nil, with: CheckingReader.self) {
    case .client(let message)?: return (message.type, .clientToServer)
    case .server(let message)?: return (message.type, .serverToClient)
    case .unknown?, nil: return nil
    }
  }
}
