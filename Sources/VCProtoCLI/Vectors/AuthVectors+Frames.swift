import VCProto

extension AuthVectors {
  /// `kind: "hkdf"`: HKDF-SHA256 of `ikm_hex`, `salt_hex`, `info_hex` and `length` must give `prk_hex`
  /// and `okm_hex`, on the platform path and the portable one.
  static func checkHKDF(_ v: JSONValue) -> String? {
    guard let ikm = v["ikm_hex"]?.stringValue.flatMap(Hex.decode),
      let salt = v["salt_hex"]?.stringValue.flatMap(Hex.decode),
      let info = v["info_hex"]?.stringValue.flatMap(Hex.decode), let length = v["length"]?.intValue,
      (0...HKDFSHA256.maximumLength).contains(length), let prk = v["prk_hex"]?.stringValue,
      let okm = v["okm_hex"]?.stringValue
    else { return "hkdf vector needs ikm_hex, salt_hex, info_hex, length, prk_hex and okm_hex" }
    if Hex.encode(HKDFSHA256.extract(salt: salt, inputKeyMaterial: ikm)) != prk { return "PRK differs" }
    if Hex.encode(HKDFSHA256.portable(inputKeyMaterial: ikm, salt: salt, info: info, length: length)) != okm {
      return "OKM (portable) differs"
    }
    if Hex.encode(HKDFSHA256.derive(inputKeyMaterial: ikm, salt: salt, info: info, length: length)) != okm {
      return "OKM (platform) differs"
    }
    return nil
  }

  /// `kind: "frames"`: the `messages` reach a channel of the `receiver` role in order. A message with
  /// `expect: "accept"` must open to `frame`; any other `expect` names the error (snake case). A
  /// message marked `sealed` must be exactly what the sending end's channel writes for `frame`, with
  /// `mac_input_hex` as its MAC input.
  static func checkFrames(_ v: JSONValue) -> String? {
    guard let c2s = v["frame_key_client_to_server_hex"]?.stringValue.flatMap(Hex.decode),
      let s2c = v["frame_key_server_to_client_hex"]?.stringValue.flatMap(Hex.decode), c2s.count == 32, s2c.count == 32,
      let role = v["receiver"]?.stringValue, role == "client" || role == "server",
      let messages = v["messages"]?.arrayValue, let valid = v["valid"]?.boolValue
    else { return "frames vector needs both 32-byte keys, receiver, messages and valid" }
    let keys = FrameKeys(clientToServer: c2s, serverToClient: s2c)
    var receiver = AuthenticatedChannel(keys: keys, role: role == "server" ? .server : .client)
    var sender = AuthenticatedChannel(keys: keys, role: role == "server" ? .client : .server)
    var allAccepted = true
    for (index, message) in messages.enumerated() {
      guard let wire = message["wire"]?.stringValue, let expect = message["expect"]?.stringValue else {
        return "message \(index) needs wire and expect"
      }
      if message["sealed"]?.boolValue == true {
        guard let frame = message["frame"]?.stringValue else { return "message \(index): sealed without frame" }
        let sequence = sender.nextSendSequence
        if let hex = message["mac_input_hex"]?.stringValue,
          hex != Hex.encode(AuthenticatedChannel.macInput(sequence: sequence, frame: frame))
        {
          return "message \(index): mac_input_hex differs"
        }
        guard let sealed = try? sender.seal(Array(frame.utf8)), sealed == Array(wire.utf8) else {
          return "message \(index): the sender writes other bytes than wire"
        }
      }
      let got: String
      do throws(AuthenticatedFrameError) {
        let inner = try receiver.open(Array(wire.utf8))
        guard expect == "accept" else { return "message \(index): accepted, expected \(expect)" }
        guard inner == message["frame"]?.stringValue.map({ Array($0.utf8) }) else {
          return "message \(index): opened to another frame"
        }
        continue
      } catch {
        got = name(error)
      }
      allAccepted = false
      guard got == expect else { return "message \(index): \(got), expected \(expect)" }
    }
    return valid == allAccepted ? nil : "\"valid\" contradicts the messages' outcomes"
  }
}
