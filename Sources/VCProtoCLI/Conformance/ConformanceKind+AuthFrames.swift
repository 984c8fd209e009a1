import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

extension ConformanceKind {
  /// `auth/hkdf.json`: HKDF-SHA256 (RFC 5869). Input `ikm_hex`, `salt_hex`, `info_hex`, `length`;
  /// the result's `prk_hex` and `okm_hex` must be the vector's.
  static let authHKDF = ConformanceKind(
    name: "auth_hkdf", folder: "auth", file: "hkdf",
    input: { members(of: $0, ["ikm_hex", "salt_hex", "info_hex", "length"]) },
    compare: { vector, result in
      ["prk_hex", "okm_hex"].compactMap { name in
        guard let want = vector[name] else { return nil }
        return result[name].map { same(want, $0) } == true
          ? nil : "\(name): expected \(show(want)), got \(show(result[name]))"
      }
    })

  /// `auth/frames.json`: messages reaching one end of a connection with authenticated frames. Input:
  /// `receiver`, both frame keys, and each message's `wire` (with `sealed` and the `frame` to seal
  /// for a message the other end writes). The result's `messages`, one per message: `verdict` must
  /// be the message's `expect`, `frame` the opened frame when accepted, and for a sealed message
  /// `wire` and `mac_input_hex` what the sender writes, byte for byte.
  static let authFrames = ConformanceKind(
    name: "auth_frames", folder: "auth", file: "frames",
    input: { vector in
      guard let messages = vector["messages"]?.arrayValue else {
        return .failure(ConformanceProblem("the vector has no \"messages\""))
      }
      let sent: [JSONValue] = messages.map { m in
        var out = JSONObject([.init(key: "wire", value: m["wire"] ?? .null)])
        if m["sealed"]?.boolValue == true {
          out["sealed"] = .bool(true)
          out["frame"] = m["frame"] ?? .null
        }
        return .object(out)
      }
      return members(of: vector, ["receiver", "frame_key_client_to_server_hex", "frame_key_server_to_client_hex"])
        .map { input in
          guard case .object(var object) = input else { return input }
          object["messages"] = .array(sent)
          return .object(object)
        }
    },
    compare: { vector, result in
      let want = vector["messages"]?.arrayValue ?? []
      guard let got = result["messages"]?.arrayValue else { return ["the result has no \"messages\" array"] }
      guard got.count == want.count else { return ["expected \(want.count) messages, got \(got.count)"] }
      var problems: [String] = []
      if let valid = vector["valid"]?.boolValue,
        valid != want.allSatisfy({ ($0["expect"]?.stringValue ?? "accept") == "accept" })
      {
        problems.append("the vector's \"valid\" contradicts its messages' expect")
      }
      for (index, (m, answer)) in zip(want, got).enumerated() {
        let expect = m["expect"]?.stringValue ?? "accept"
        if answer["verdict"]?.stringValue != expect {
          problems.append("message \(index): expected \(expect), got \(show(answer["verdict"]))")
        }
        if expect == "accept", let frame = m["frame"], answer["frame"] != frame {
          problems.append("message \(index): opened \(show(answer["frame"])), not \(show(frame))")
        }
        if m["sealed"]?.boolValue == true {
          for name in ["wire", "mac_input_hex"] where m[name] != nil && answer[name] != m[name] {
            problems.append(
              "message \(index): sealed \(name) differs: expected \(show(m[name])), got \(show(answer[name]))")
          }
        }
      }
      return problems
    })
}
