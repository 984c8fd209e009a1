import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// Every real 0.2.0 message in the protocol reference decodes with the verdict the reference catalog
/// implies. The oracle below reads the reference catalog itself (requiredness, nullability, JSON
/// types, nested shapes), independently of vcproto's catalog and validator.
@Suite struct RealSampleTests {
  static let referenceDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Reference")

  /// Closed sets vcproto enforces; every other reference `enum` is an open set of known values.
  static let closedEnums: Set<String> = ["command_output.stream", "type", "role", "success"]

  struct Sample {
    var line: Int
    var direction: String
    var message: Any
    var text: String
  }

  static func samples() throws -> [Sample] {
    let url = referenceDirectory.appendingPathComponent("samples.jsonl")
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    var out: [Sample] = []
    for (i, line) in lines.enumerated() {
      let row = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
      guard row["era"] as? String == "0.2.0", row["templated"] as? Bool != true else { continue }
      let message = row["message"]!
      let text = String(decoding: try JSONSerialization.data(withJSONObject: message), as: UTF8.self)
      // Placeholders such as "<iOS-session-UUID>" or "$requestedSessionId" are not real values.
      if text.range(of: #""<[^"]*>""#, options: .regularExpression) != nil || text.contains("\"$") { continue }
      out.append(Sample(line: i + 1, direction: row["direction"] as! String, message: message, text: text))
    }
    return out
  }

  /// The reference catalog's verdict: nil when valid, else the first reason.
  static func oracle(_ message: [String: Any], catalog: [[String: Any]]) -> String? {
    guard let type = message["type"] as? String,
      let entry = catalog.first(where: { $0["type"] as? String == type }),
      entry["status"] as? String != "listed_in_review_but_nonexistent"
    else { return nil }  // unknown types are warnings, not errors
    if let reason = check(object: message, fields: entry["fields"] as! [[String: Any]], owner: type, nested: false) {
      return reason
    }
    // Rules the reference states only as the backend's error texts.
    let errorTexts = ((entry["errors"] as? [[String: Any]]) ?? []).compactMap { $0["message"] as? String }
    if errorTexts.contains("Cannot specify both new_session_id and resume_session_id"),
      message["new_session_id"] is String, message["resume_session_id"] is String
    {
      return "both new_session_id and resume_session_id"
    }
    if errorTexts.contains(where: { $0.hasPrefix("size_kb (positive integer)") }),
      let size = message["size_kb"] as? NSNumber, size.doubleValue <= 0
    {
      return "size_kb not positive"
    }
    return nil
  }

  /// `nested` is false for the message's own members (whose `type` is the discriminator) and true
  /// inside shapes (where `type` is a member such as a command node's).
  static func check(object: [String: Any], fields: [[String: Any]], owner: String, nested: Bool) -> String? {
    for f in fields {
      let name = f["name"] as! String
      guard let value = object[name] else {
        if f["required"] as! Bool { return "missing \(name)" }
        continue
      }
      if value is NSNull {
        if !(f["nullable"] as! Bool) { return "null \(name)" }
        continue
      }
      if let reason = checkValue(value, f, owner: owner, nested: nested, enclosing: fields) { return reason }
    }
    return nil
  }

  /// JSONSerialization gives NSNumber for numbers and booleans alike; booleans are a distinct class.
  static func isBool(_ v: Any) -> Bool { String(describing: type(of: v)).contains("Boolean") }

  static func checkValue(
    _ value: Any, _ f: [String: Any], owner: String, nested: Bool, enclosing: [[String: Any]]
  ) -> String? {
    let name = f["name"] as! String
    let jsonType = f["json_type"] as! String
    switch jsonType {
    case "string": if !(value is String) { return "type \(name)" }
    case "integer":
      guard let n = value as? NSNumber, !isBool(value), n.doubleValue == n.doubleValue.rounded() else {
        return "type \(name)"
      }
    case "number": if !(value is NSNumber) || isBool(value) { return "type \(name)" }
    case "boolean": if !isBool(value) { return "type \(name)" }
    case "string|array": if !(value is String) && !(value is [Any]) { return "type \(name)" }
    case "object":
      guard let o = value as? [String: Any] else { return "type \(name)" }
      if let shape = f["shape"] as? [String: Any], let sub = shape["fields"] as? [[String: Any]] {
        if let r = check(object: o, fields: sub, owner: owner, nested: true) { return "\(name).\(r)" }
      }
    case "array":
      guard let items = value as? [Any] else { return "type \(name)" }
      var sub = ((f["shape"] as? [String: Any])?["items"] as? [String: Any])?["fields"] as? [[String: Any]]
      // "array of command nodes (recursive)": the elements have the enclosing shape's members.
      if let text = f["shape"] as? String, text.contains("recursive") { sub = enclosing }
      if let sub {
        for element in items {
          guard let o = element as? [String: Any] else { return "type \(name)[]" }
          if let r = check(object: o, fields: sub, owner: owner, nested: true) { return "\(name)[].\(r)" }
        }
      }
    default: break
    }
    if let allowed = f["enum"] as? [Any], closedEnums.contains(name) || closedEnums.contains("\(owner).\(name)"),
      name != "type" || nested
    {
      if !allowed.contains(where: { "\($0)" == "\(value)" }) { return "enum \(name)" }
    }
    return nil
  }

  @Test func realSamplesDecodeWithTheReferenceVerdict() throws {
    let reference = try JSONSerialization.jsonObject(
      with: Data(contentsOf: Self.referenceDirectory.appendingPathComponent("catalog-0.2.0.json")))
    let catalog = (reference as! [String: Any])["messages"] as! [[String: Any]]
    let samples = try Self.samples()
    #expect(samples.count > 150)
    var agreed = 0
    var rejectedByReference = 0
    for sample in samples {
      let expected = Self.oracle(sample.message as! [String: Any], catalog: catalog)
      let direction = MessageDirection(rawValue: sample.direction)
      let decoder = MessageDecoder(options: ValidationOptions(direction: direction, version: .v0_2_0))
      do {
        let message = try decoder.decode(sample.text)
        #expect(expected == nil, "line \(sample.line): decoded, but the reference says \(expected ?? "")")
        // Lossless: re-encoding and decoding again gives the same typed value.
        let again = try? decoder.decode(MessageEncoder().encode(message))
        #expect(again == message, "line \(sample.line): round trip changed the message")
        if expected == nil && again == message { agreed += 1 }
      } catch {
        #expect(
          expected != nil,
          "line \(sample.line): rejected \(error.findings) but the reference accepts it: \(sample.text)")
        if expected != nil { agreed += 1 }
      }
      if expected != nil { rejectedByReference += 1 }
    }
    #expect(agreed == samples.count)
    // Some real samples are deliberately incomplete: the oracle must reject a few, or it judges nothing.
    #expect(rejectedByReference > 0)
  }

  /// The oracle above can say no: each of these breaks one fact of the reference catalog, and the
  /// oracle must name it (a blind oracle would make the test above pass vacuously).
  @Test func oracleRejectsWhatTheReferenceForbids() throws {
    let reference = try JSONSerialization.jsonObject(
      with: Data(contentsOf: Self.referenceDirectory.appendingPathComponent("catalog-0.2.0.json")))
    let catalog = (reference as! [String: Any])["messages"] as! [[String: Any]]
    func verdict(_ json: String) throws -> String? {
      let message = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
      return Self.oracle(message, catalog: catalog)
    }
    let node = #"{"id":"a","label":"A","type":"command"}"#
    func commands(_ project: String) -> String {
      #"{"type":"available_commands","working_directory":null,"project_commands":[\#(project)],"general_commands":[\#(node)]}"#
    }
    #expect(try verdict(commands(node)) == nil)
    #expect(try verdict(commands(#"{"id":"a","label":"A","type":"folder"}"#)) == "project_commands[].enum type")
    #expect(
      try verdict(
        commands(#"{"id":"g","label":"G","type":"group","children":[{"id":"b","label":"B","type":"folder"}]}"#))
        == "project_commands[].children[].enum type")
    #expect(
      try verdict(commands(#"{"id":"g","label":"G","type":"group","children":[{"id":"b","type":"command"}]}"#))
        == "project_commands[].children[].missing label")
    #expect(
      try verdict(#"{"type":"command_output","command_session_id":"c","stream":"stdin","text":""}"#) == "enum stream")
    #expect(try verdict(#"{"type":"session_list","sessions":[{"session_id":"s"}],"total_count":1}"#) != nil)
    #expect(try verdict(#"{"type":"error","message":"m","session_id":null}"#) == "null session_id")
    #expect(try verdict(#"{"type":"set_max_message_size","size_kb":0}"#) == "size_kb not positive")
    #expect(
      try verdict(#"{"type":"prompt","text":"t","new_session_id":"a","resume_session_id":"b"}"#)
        == "both new_session_id and resume_session_id")
  }
}
