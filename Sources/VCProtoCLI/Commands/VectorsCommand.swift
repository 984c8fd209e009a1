import Foundation
import VCProto

/// `vcproto vectors`: runs the golden vectors of every kind (messages, envelope, auth, negotiation)
/// and prints one PASS/FAIL line each.
enum VectorsCommand {
  static let spec = CommandSpec(
    name: "vectors",
    abstract: "Run the golden test vectors: one PASS/FAIL line each.",
    example: "vcproto vectors Vectors",
    exitStatus: [
      ExitStatus(0, "all passed"), ExitStatus(1, "any failed"), ExitStatus(2, "usage error or no vectors found"),
    ],
    positionals: [PositionalSpec(name: "dir", help: "The vectors directory (default Vectors).", optional: true)])

  /// One kind of vector: its folder and how one vector is checked (`nil` when it passes).
  struct Kind: Sendable {
    var folder: String
    var check: @Sendable (JSONValue) -> String?
  }

  /// The kinds, in the order they run.
  static let kinds: [Kind] = [
    Kind(folder: "messages", check: check),
    Kind(folder: "envelope", check: EnvelopeVectors.check),
    Kind(folder: "auth", check: AuthVectors.check),
    Kind(folder: "negotiation", check: NegotiationVectors.check),
    Kind(folder: "sessions", check: SessionVectors.check),
  ]

  /// Why a vectors file could not be read.
  struct FileProblem: Error {
    let text: String
  }

  /// The vectors of one file, or why there are none (unreadable, not JSON with the parser's reason
  /// and offset, or not an array).
  static func readVectors(_ path: String) -> Result<[JSONValue], FileProblem> {
    guard let data = FileManager.default.contents(atPath: path) else {
      return .failure(FileProblem(text: "cannot read the file"))
    }
    do {
      guard case .array(let vectors) = try JSONReader(limits: vectorFileLimits).parse([UInt8](data)) else {
        return .failure(FileProblem(text: "not a JSON array of vectors"))
      }
      return .success(vectors)
    } catch {
      return .failure(FileProblem(text: "not a JSON array of vectors: \(error)"))
    }
  }

  static func run(_ args: ParsedArguments, io: CommandIO) -> Int32 {
    let name = args.positionals.first ?? "Vectors"
    let root = io.resolve(name)
    let fm = FileManager.default
    guard let folders = try? fm.contentsOfDirectory(atPath: root) else {
      io.standardError.line("vcproto vectors: cannot read directory '\(name)'")
      return 2
    }
    let known = Set(kinds.map(\.folder))
    for folder in folders.sorted() where !known.contains(folder) {
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: root + "/" + folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        continue
      }
      io.standardOutput.line("skip \(folder)/: not a known kind of vector")
    }
    var passed = 0
    var failed = 0
    var filesRun = 0
    for kind in kinds {
      let directory = root + "/" + kind.folder
      // Recursive: Vectors/messages/<version>/<type>.json.
      let files = (fm.enumerator(atPath: directory)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".json") }
        .sorted()
      for file in files {
        filesRun += 1
        let display = "\(kind.folder)/\(file)"
        let vectors: [JSONValue]
        switch readVectors(directory + "/" + file) {
        case .success(let list): vectors = list
        case .failure(let problem):
          io.standardOutput.line("FAIL \(display): \(problem.text)")
          failed += 1
          continue
        }
        // Named as `vcproto conformance` names its tests: the file's folder, then the vector's id
        // (`messages/0.2.0/ack.valid`), so each name is unique and a failure list can be shared.
        let components = file.split(separator: "/").map(String.init)
        let folder = ([kind.folder] + components.dropLast()).joined(separator: "/")
        for (index, vector) in vectors.enumerated() {
          let id = folder + "/" + (vector["id"]?.stringValue ?? "\(components.last ?? file)[\(index)]")
          if let problem = kind.check(vector) {
            io.standardOutput.line("FAIL \(id): \(problem)")
            failed += 1
          } else {
            io.standardOutput.line("PASS \(id)")
            passed += 1
          }
        }
      }
    }
    guard filesRun > 0 else {
      io.standardError.line(
        "vcproto vectors: no vectors in '\(name)' (looked in "
          + kinds.map { "\($0.folder)/" }.joined(separator: ", ") + ")")
      return 2
    }
    io.standardOutput.line("\(passed) passed, \(failed) failed")
    return failed == 0 ? 0 : 1
  }

  /// Vector files hold many frames and envelopes (an 8 MiB bomb among them): larger than one frame.
  static let vectorFileLimits: JSONLimits = {
    var limits = JSONLimits.default
    limits.maxFrameBytes = 256 * 1024 * 1024
    limits.maxStringBytes = 256 * 1024 * 1024
    return limits
  }()

  /// A message vector: `nil` when it passes, else what differed.
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
    guard let text = vector["protocol_version"]?.stringValue else { return "vector has no \"protocol_version\"" }
    guard let version = ProtocolVersion(rawValue: text) else { return "unknown protocol_version \"\(text)\"" }
    let options = ValidationOptions(direction: direction, version: version)
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
