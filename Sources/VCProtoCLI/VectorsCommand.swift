import Foundation
import VCProto

/// `vcproto vectors`: runs the golden message vectors and prints one PASS/FAIL line each.
enum VectorsCommand {
  static let spec = CommandSpec(
    name: "vectors",
    abstract: "Run the golden test vectors: one PASS/FAIL line each.",
    discussion: """
      Reads every <dir>/messages/*.json: a JSON array of vectors {id, description, direction,
      protocol_version, frame, valid, findings?}. Each frame is validated and decoded; a vector
      passes when both agree with `valid` and, when `findings` lists {pointer, code} pairs, every
      listed finding is reported and every error reported is listed. Other vector folders are
      skipped with a note. The output is what an implementation in another language compares with.
      Exit status: 0 all passed, 1 any failed, 2 no vectors found.
      """,
    positionals: [PositionalSpec(name: "dir", help: "The vectors directory (default Vectors).", optional: true)])

  /// Folders other tools run.
  static let knownOtherFolders: Set<String> = ["auth", "negotiation", "envelope"]

  static func run(_ args: ParsedArguments, io: CommandIO) -> Int32 {
    let name = args.positionals.first ?? "Vectors"
    let root = io.resolve(name)
    let fm = FileManager.default
    guard let folders = try? fm.contentsOfDirectory(atPath: root) else {
      io.standardError.line("vcproto vectors: cannot read directory '\(name)'")
      return 2
    }
    for folder in folders.sorted() where folder != "messages" {
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: root + "/" + folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        continue
      }
      io.standardOutput.line("skip \(folder)/: not message vectors (run by their own tests)")
    }
    let messages = root + "/messages"
    let files = ((try? fm.contentsOfDirectory(atPath: messages)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    guard !files.isEmpty else {
      io.standardError.line("vcproto vectors: no message vectors in '\(name)/messages'")
      return 2
    }
    var passed = 0
    var failed = 0
    for file in files {
      let display = "messages/\(file)"
      guard let data = fm.contents(atPath: messages + "/" + file),
        case .array(let vectors)? = try? JSONReader().parse([UInt8](data))
      else {
        io.standardOutput.line("FAIL \(display): not a JSON array of vectors")
        failed += 1
        continue
      }
      for (index, vector) in vectors.enumerated() {
        let id = vector["id"]?.stringValue ?? "\(display)[\(index)]"
        if let problem = check(vector) {
          io.standardOutput.line("FAIL \(id): \(problem)")
          failed += 1
        } else {
          io.standardOutput.line("PASS \(id)")
          passed += 1
        }
      }
    }
    io.standardOutput.line("\(passed) passed, \(failed) failed")
    return failed == 0 ? 0 : 1
  }

  /// `nil` when the vector passes, else what differed.
  static func check(_ vector: JSONValue) -> String? {
    guard let valid = vector["valid"]?.boolValue else { return "vector has no boolean \"valid\"" }
    let bytes: [UInt8]
    switch vector["frame"] {
    case .string(let text)?: bytes = Array(text.utf8)
    case let value?: bytes = Array(value.jsonText.utf8)
    case nil: return "vector has no \"frame\""
    }
    var direction: MessageDirection?
    if let word = vector["direction"]?.stringValue {
      guard let d = MessageDirection(rawValue: word) else { return "unknown direction \"\(word)\"" }
      direction = d
    }
    let version = vector["protocol_version"]?.stringValue ?? "0.2.0"
    guard ProtocolCatalog.version(version) != nil else { return "unknown protocol_version \"\(version)\"" }
    let options = ValidationOptions(direction: direction, protocolVersion: version)
    let report = Validator(options: options).validate(bytes)
    let decodes: Bool
    do {
      _ = try MessageDecoder(options: options).decode(bytes)
      decodes = true
    } catch {
      decodes = false
    }
    let got = report.findings.map { "\($0.code.rawValue) \($0.pointer.isEmpty ? "\"\"" : $0.pointer)" }
    let gotText = got.isEmpty ? "no findings" : got.joined(separator: ", ")
    if report.isValid != valid {
      return "expected \(valid ? "valid" : "invalid"), got \(report.isValid ? "valid" : "invalid") (\(gotText))"
    }
    if decodes != valid {
      return "expected decode to \(valid ? "succeed" : "fail"), got \(decodes ? "success" : "failure")"
    }
    guard let expected = vector["findings"]?.arrayValue else { return nil }
    let want: [(pointer: String, code: String)] = expected.map {
      ($0["pointer"]?.stringValue ?? "", $0["code"]?.stringValue ?? "")
    }
    let missing = want.filter { w in !report.findings.contains { $0.pointer == w.pointer && $0.code.rawValue == w.code }
    }
    let extra = report.errors.filter { f in !want.contains { $0.pointer == f.pointer && $0.code == f.code.rawValue } }
    if missing.isEmpty, extra.isEmpty { return nil }
    let wantText = want.map { "\($0.code) \($0.pointer.isEmpty ? "\"\"" : $0.pointer)" }.joined(separator: ", ")
    return "expected \(wantText.isEmpty ? "no findings" : wantText), got \(gotText)"
  }
}
