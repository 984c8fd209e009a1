import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

extension ConformanceKind {
  /// `sessions/`: a conversation. The peer builds a client or server engine (`role`) from `config`,
  /// feeds it the inputs of `steps` in order and answers `{"steps": [...]}`, one entry per step:
  /// `{"actions": [...]}`, what the engine did, or `{"error": {"state", "event"}}` for an illegal
  /// event. Each must be the step's `expect` (actions in order, objects as data) or its `error`.
  static let sessions = ConformanceKind(
    name: "sessions",
    input: { vector in
      guard let role = vector["role"], let steps = vector["steps"]?.arrayValue else {
        return .failure(ConformanceProblem("the vector needs \"role\" and \"steps\""))
      }
      var inputs: [JSONValue] = []
      for (index, step) in steps.enumerated() {
        guard let input = step["input"] else { return .failure(ConformanceProblem("step \(index) has no \"input\"")) }
        inputs.append(input)
      }
      return .success(
        .object(
          JSONObject([
            .init(key: "role", value: role), .init(key: "config", value: vector["config"] ?? .object(JSONObject())),
            .init(key: "steps", value: .array(inputs)),
          ])))
    },
    compare: { vector, result in
      let want = vector["steps"]?.arrayValue ?? []
      guard let got = result["steps"]?.arrayValue else { return ["the result has no \"steps\" array"] }
      guard got.count == want.count else { return ["expected \(want.count) steps, got \(got.count)"] }
      for (index, (step, answer)) in zip(want, got).enumerated() {
        let kind = step["input"]?["kind"]?.stringValue ?? "?"
        if let error = step["error"] {
          guard let said = answer["error"], same(error, said) else {
            return ["step \(index) (\(kind)): expected the illegal event \(show(error)), got \(show(answer))"]
          }
          continue
        }
        let expected = step["expect"] ?? .array([])
        guard let actions = answer["actions"],
          same(SessionVectors.sentTextsParsed(expected), SessionVectors.sentTextsParsed(actions))
        else {
          return ["step \(index) (\(kind)): expected \(show(expected)), got \(show(answer))"]
        }
      }
      return []
    })
}
