import Foundation
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `vcproto-dev generate-spec`: writes the message reference `docs/MESSAGES.md` (message and shape
/// tables, examples from the golden vectors) and rewrites the generated table of STANDARDS.md, from the
/// catalog.
enum GenerateSpecCommand {
  static let spec = CommandSpec(
    name: "generate-spec",
    abstract: "Write docs/MESSAGES.md and STANDARDS.md's generated table from the catalog (for maintainers).",
    program: VCProtoCommand.developerProgram,
    example: "vcproto-dev generate-spec",
    exitStatus: [ExitStatus(0, "written"), ExitStatus(2, "usage error, or a file that cannot be read or written")],
    options: [
      .option("spec", value: "file", help: "The specification to rewrite (default STANDARDS.md)."),
      .option("reference", value: "file", help: "The message reference to write (default docs/MESSAGES.md)."),
      .option("vectors", value: "dir", help: "Message vectors with the examples (default Vectors/messages)."),
    ])

  static func run(_ args: ParsedArguments, io: CommandIO, tools: DeveloperTools) -> Int32 {
    let specPath = URL(fileURLWithPath: io.resolve(args["spec"] ?? "STANDARDS.md"))
    let referencePath = URL(fileURLWithPath: io.resolve(args["reference"] ?? tools.referencePath))
    let vectors = URL(fileURLWithPath: io.resolve(args["vectors"] ?? "Vectors/messages"))
    let document: String
    do {
      document = try String(contentsOf: specPath, encoding: .utf8)
    } catch {
      io.standardError.line("vcproto-dev generate-spec: cannot read \(specPath.path): \(error.localizedDescription)")
      return 2
    }
    let rendered = tools.renderSpec(SpecExamples.load(from: vectors), document)
    for (path, text) in [(specPath, rendered.standards), (referencePath, rendered.reference)] {
      do {
        try text.write(to: path, atomically: true, encoding: .utf8)
      } catch {
        io.standardError.line("vcproto-dev generate-spec: cannot write \(path.path): \(error)")
        return 2
      }
    }
    io.standardOutput.line("wrote \(referencePath.path) and the generated table of \(specPath.path)")
    return 0
  }
}

/// The example frame of each type: the frame of vector `<type>.valid`.
public enum SpecExamples {
  /// Reads `<dir>/**/*.json` and returns `<protocol_version>/<type>` -> frame for every `<type>.valid`
  /// vector.
  public static func load(from directory: URL) -> [String: String] {
    var examples: [String: String] = [:]
    let files = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String]) ?? []
    for name in files where name.hasSuffix(".json") {
      guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
        continue
      }
      let parsed: JSONValue
      do { parsed = try JSONReader().parse(Array(data)) } catch { continue }  // not a vector file
      guard case .array(let vectors) = parsed else { continue }
      for vector in vectors {
        guard let id = vector["id"]?.stringValue, id.hasSuffix(".valid"), let frame = vector["frame"]?.stringValue,
          let version = vector["protocol_version"]?.stringValue
        else { continue }
        examples[version + "/" + String(id.dropLast(".valid".count))] = frame
      }
    }
    return examples
  }
}
