import Foundation
import Testing
import VCProto

@testable import VCProtoCLI

/// `vcproto catalog --diff A B` against facts read by hand from the real system's version history
/// (Reference/README.md and the transition tables it summarises; see STANDARDS.md's version history),
/// never from the command's own output.
@Suite struct CatalogDiffTests {
  /// The JSON form of `--diff a b`.
  static func diff(_ a: String, _ b: String) throws -> [String: Any] {
    let result = runCommand(["catalog", "--diff", a, b, "--format", "json"])
    #expect(result.status == 0, "\(result.err)")
    return try #require(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
  }

  static func types(_ diff: [String: Any], _ key: String) -> Set<String> {
    Set((diff[key] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String })
  }

  /// `member change` pairs of one changed type (or shape).
  static func changes(_ diff: [String: Any], _ name: String, shape: Bool = false) -> Set<String> {
    let list = diff[shape ? "shapes_changed" : "types_changed"] as? [[String: Any]] ?? []
    let entry = list.first { ($0[shape ? "shape" : "type"] as? String) == name }
    return Set(
      (entry?["changes"] as? [[String: Any]] ?? []).map {
        "\($0["member"] as? String ?? "(type)") \($0["change"] as? String ?? "")"
      })
  }

  @Test func from0_4_0To0_5_0OnlyTheCursorAndItsEnvelopeChanged() throws {
    let d = try Self.diff("0.4.0", "0.5.0")
    // 0.5.0 adds and removes no type; subscribe and session_history change shape (versions.md 4.1, 4.2).
    #expect(Self.types(d, "types_added").isEmpty)
    #expect(Self.types(d, "types_removed").isEmpty)
    #expect(
      Self.changes(d, "subscribe") == [
        "last_seq removed", "last_message_id removed", "from_offset added", "file_signature_seen added",
      ])
    #expect(
      Self.changes(d, "session_history") == [
        "first_seq removed", "last_seq removed", "next_seq removed", "is_complete removed", "gap removed",
        "next_offset added", "end_of_file added", "file_signature added", "file_replaced added",
      ])
    // Each history message carries offset instead of seq.
    #expect(Self.changes(d, "HistoryMessage", shape: true) == ["seq removed", "offset added"])
    #expect((d["shapes_removed"] as? [String]) == ["HistoryGap"])
  }

  @Test func from0_2_0To0_3_0() throws {
    let d = try Self.diff("0.2.0", "0.3.0")
    #expect(
      Self.types(d, "types_added") == [
        "supervisor_message", "canvas_action", "canvas_update", "tts_speak", "supervisor_thinking",
      ])
    #expect(Self.types(d, "types_removed") == ["set_directory", "session_locked"])
    #expect(Self.changes(d, "prompt") == ["provider added"])
    #expect(Self.changes(d, "turn_complete") == ["aborted added", "session_id nullable"])
    #expect(Self.changes(d, "session_history") == ["messages retyped"])
    #expect(Self.changes(d, "response") == ["usage removed", "cost removed"])
    #expect(Self.changes(d, "RecentSession", shape: true) == ["provider added"])
  }

  @Test func from0_3_0To0_4_0() throws {
    let d = try Self.diff("0.3.0", "0.4.0")
    #expect(Self.types(d, "types_added") == ["connect_ack"])
    #expect(Self.types(d, "types_removed").isEmpty)
    // connected is sent from 0.4.0 on, always with the negotiated version.
    #expect(
      Self.changes(d, "connected") == [
        "(type) status", "negotiated_protocol_version required", "negotiated_protocol_version known_values",
      ])
    // last_message_id stays, but only null is accepted; last_seq is new.
    #expect(Self.changes(d, "subscribe") == ["last_message_id allowed_values", "last_seq added"])
    // protocol_version is optional and nullable (null = absent) on both sides: the real server reads
    // null as absent under every floor (STANDARDS.md#negotiation), so connect does not change.
    #expect(Self.changes(d, "connect").isEmpty)
    #expect(Self.changes(d, "session_history").isSuperset(of: ["total_count removed", "first_seq added", "gap added"]))
  }

  @Test func textFormAndErrors() {
    let same = runCommand(["catalog", "--diff", "0.5.0", "0.5.0"])
    #expect(same.status == 0 && same.out == "protocol 0.5.0 -> 0.5.0\n  no differences\n")
    let text = runCommand(["catalog", "--diff", "0.4.0", "0.5.0"])
    #expect(text.out.contains("      + from_offset: integer >= 0, optional, nullable\n"))
    #expect(text.out.contains("      - seq: integer >= 1, required\n"))
    #expect(runCommand(["catalog", "--diff", "0.4.0"]).status == 2)
    #expect(runCommand(["catalog", "--diff", "0.4.0", "0.9.0"]).err.contains("unknown protocol version '0.9.0'"))
    #expect(runCommand(["catalog", "0.4.0"]).status == 2)
  }
}
