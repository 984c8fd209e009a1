import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

extension AuthVectors {
  /// `auth/hkdf.json`: HKDF-SHA256 of `ikm_hex`, `salt_hex`, `info_hex` and `length`; the result is
  /// `prk_hex` and `okm_hex`. The platform path and the portable one must agree.
  static func answerHKDF(_ v: JSONValue) -> Result<JSONValue, SwiftPeer.Refusal> {
    guard let ikm = v["ikm_hex"]?.stringValue.flatMap(Hex.decode),
      let salt = v["salt_hex"]?.stringValue.flatMap(Hex.decode),
      let info = v["info_hex"]?.stringValue.flatMap(Hex.decode), let length = v["length"]?.intValue,
      (0...HKDFSHA256.maximumLength).contains(length)
    else { return .failure(.init("an hkdf input needs ikm_hex, salt_hex, info_hex and a length the hash allows")) }
    let okm = HKDFSHA256.derive(inputKeyMaterial: ikm, salt: salt, info: info, length: length)
    guard HKDFSHA256.portable(inputKeyMaterial: ikm, salt: salt, info: info, length: length) == okm else {
      return .failure(.init("the portable and the platform HKDF give different OKMs"))
    }
    return .success([
      "prk_hex": .string(Hex.encode(HKDFSHA256.extract(salt: salt, inputKeyMaterial: ikm))),
      "okm_hex": .string(Hex.encode(okm)),
    ])
  }

  /// `auth/frames.json`: the `messages` reach a channel of the `receiver` role in order. Each
  /// answer's `verdict` is `accept` (with the opened `frame`) or the error's name (snake case). For a
  /// message marked `sealed`, the answer also holds what the sending end's channel writes for its
  /// `frame` (`wire`) and that MAC input (`mac_input_hex`).
  static func answerFrames(_ v: JSONValue) -> Result<JSONValue, SwiftPeer.Refusal> {
    guard let c2s = v["frame_key_client_to_server_hex"]?.stringValue.flatMap(Hex.decode),
      let s2c = v["frame_key_server_to_client_hex"]?.stringValue.flatMap(Hex.decode), c2s.count == 32, s2c.count == 32,
      let role = v["receiver"]?.stringValue, role == "client" || role == "server",
      let messages = v["messages"]?.arrayValue
    else { return .failure(.init("a frames input needs both 32-byte keys, receiver and messages")) }
    let keys = FrameKeys(clientToServer: c2s, serverToClient: s2c)
    var receiver = AuthenticatedChannel(keys: keys, role: role == "server" ? .server : .client)
    var sender = AuthenticatedChannel(keys: keys, role: role == "server" ? .client : .server)
    var answers: [JSONValue] = []
    for (index, message) in messages.enumerated() {
      guard let wire = message["wire"]?.stringValue else { return .failure(.init("message \(index) has no wire")) }
      var answer = JSONObject()
      if message["sealed"]?.boolValue == true {
        guard let frame = message["frame"]?.stringValue else {
          return .failure(.init("message \(index): sealed without frame"))
        }
        let input = AuthenticatedChannel.macInput(sequence: sender.nextSendSequence, frame: frame)
        guard let sealed = try? sender.seal(Array(frame.utf8)) else {
          return .failure(.init("message \(index): the sender does not seal its frame"))
        }
        answer["wire"] = .string(String(decoding: sealed, as: UTF8.self))
        answer["mac_input_hex"] = .string(Hex.encode(input))
      }
      do throws(AuthenticatedFrameError) {
        let inner = try receiver.open(Array(wire.utf8))
        answer["verdict"] = .string("accept")
        answer["frame"] = .string(String(decoding: inner, as: UTF8.self))
      } catch {
        answer["verdict"] = .string(name(error))
      }
      answers.append(.object(answer))
    }
    return .success(["messages": .array(answers)])
  }
}
