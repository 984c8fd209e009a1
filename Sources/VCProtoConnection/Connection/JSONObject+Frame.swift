import VCProtoCore
import VCProtoJSON

extension JSONObject {
  /// A frame: `type` first, then `members` in order.
  static func frame(_ type: String, _ members: KeyValuePairs<String, JSONValue> = [:]) -> JSONObject {
    var all: [Member] = []
    all.reserveCapacity(1 + members.count)  // one allocation (appending to a literal grows it)
    all.append(Member(key: "type", value: .string(type)))
    for (key, value) in members { all.append(Member(key: key, value: value)) }
    return JSONObject(all)
  }

  /// A frame of `type` and one member, `key`: `value` (one allocation; a `KeyValuePairs` literal is one
  /// more, on paths that run for every frame or request).
  static func frame(_ type: String, _ key: String, _ value: JSONValue) -> JSONObject {
    JSONObject([Member(key: "type", value: .string(type)), Member(key: key, value: value)])
  }
}
