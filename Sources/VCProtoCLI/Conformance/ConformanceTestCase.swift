import Foundation
import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// One test of `vcproto conformance`: a vector, its kind and its name.
struct ConformanceTestCase: Sendable {
  /// `<folder of its file, relative to the vectors directory>/<vector id>`, e.g.
  /// `negotiation/matrix.default.absent` or, with versioned folders, `messages/0.3.0/ping.valid`.
  var name: String
  /// The kind's name (``ConformanceKind/of(_:among:)``: the file's folder, and its name when the
  /// folder holds several kinds).
  var kind: String
  /// The vector as read.
  var vector: JSONValue

  /// Every vector under `root`, found recursively (`*.json` files holding JSON arrays), in path
  /// order, the vectors of a file in file order. Folders no kind reads are reported in
  /// `unknownKinds`; files that are not arrays of vectors and duplicate names in `problems`.
  static func discover(root: String, kinds: [ConformanceKind] = ConformanceKind.all) -> (
    tests: [ConformanceTestCase], unknownKinds: [String], problems: [String]
  ) {
    let fm = FileManager.default
    guard let enumerator = fm.enumerator(atPath: root) else { return ([], [], ["cannot read \(root)"]) }
    var files: [String] = []
    while let path = enumerator.nextObject() as? String {
      if path.hasSuffix(".json"), path.contains("/") { files.append(path) }
    }
    var tests: [ConformanceTestCase] = []
    var unknown: Set<String> = []
    var problems: [String] = []
    var seen: Set<String> = []
    for path in files.sorted() {
      let components = path.split(separator: "/").map(String.init)
      guard let kind = ConformanceKind.of(components, among: kinds)?.name else {
        unknown.insert(components[0])
        continue
      }
      let folder = components.dropLast().joined(separator: "/")
      let vectors: [JSONValue]
      switch VectorsCommand.readVectors(root + "/" + path) {
      case .success(let list): vectors = list
      case .failure(let problem):
        problems.append("\(path): \(problem.text)")
        continue
      }
      for (index, vector) in vectors.enumerated() {
        let name = folder + "/" + (vector["id"]?.stringValue ?? "\(components.last!)[\(index)]")
        guard seen.insert(name).inserted else {
          problems.append("\(path): the test name \(name) is used twice")
          continue
        }
        tests.append(ConformanceTestCase(name: name, kind: kind, vector: vector))
      }
    }
    return (tests, unknown.sorted(), problems)
  }
}
