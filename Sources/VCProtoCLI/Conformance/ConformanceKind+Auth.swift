import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

extension ConformanceKind {
  /// The members of an auth vector the handshake produces: never sent to the peer, each compared
  /// with the peer's result when the vector has it.
  static let authOutputs = [
    "mac_input_hex", "auth_response", "received_mac_input_hex", "negotiated_protocol_version",
    "accepted_capabilities", "auth_version", "server_proof_input_hex", "server_proof", "client_proof_input_hex",
    "frame_keys_salt_hex", "frame_keys_info_client_to_server_hex", "frame_keys_info_server_to_client_hex",
    "frame_key_client_to_server_hex", "frame_key_server_to_client_hex",
  ]

  /// `auth/`: the peer plays the handshake from the vector's inputs (every member but `id`,
  /// `description` and the expectations). Its `outcome` must be `expected_outcome` (`ok` for a valid
  /// vector without one), its `failure` the vector's, each of ``authOutputs`` the vector has must be
  /// equal, and it may derive frame keys only when the vector has them.
  static let auth = ConformanceKind(
    name: "auth",
    input: {
      members(
        of: $0, excluding: Set(authOutputs + ["id", "kind", "description", "valid", "expected_outcome", "failure"]))
    },
    compare: { vector, result in
      let valid = vector["valid"]?.boolValue
      guard let outcome = vector["expected_outcome"]?.stringValue ?? (valid == true ? "ok" : nil) else {
        return ["the vector has no \"expected_outcome\""]
      }
      if let valid, valid != (outcome == "ok") {
        return ["the vector's \"valid\" contradicts its expected_outcome \"\(outcome)\""]
      }
      var problems: [String] = []
      let got = result["outcome"]?.stringValue
      if got != outcome { problems.append("expected outcome \(outcome), the peer says \(got ?? "nothing")") }
      if let failure = vector["failure"]?.stringValue, result["failure"]?.stringValue != failure {
        problems.append("expected failure \(failure), the peer says \(show(result["failure"]))")
      }
      for name in authOutputs {
        guard let want = vector[name] else { continue }
        guard let value = result[name] else {
          problems.append("no \(name)")
          continue
        }
        if !same(want, value) { problems.append("\(name) differs: expected \(show(want)), got \(show(value))") }
      }
      // Frame keys the vector does not have: authenticated frames where the vector has none.
      for name in authOutputs where name.hasPrefix("frame_key") && vector[name] == nil && result[name] != nil {
        problems.append("unexpected \(name): the vector has no authenticated frames")
      }
      return problems
    })
}
