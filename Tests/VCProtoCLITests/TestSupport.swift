import Foundation
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

/// Runs `vcproto` in process with buffered streams.
func runCommand(_ arguments: [String], stdin: String? = nil, directory: String? = nil) -> (
  status: Int32, out: String, err: String
) {
  let out = OutputSink()
  let err = OutputSink()
  var io = CommandIO(standardOutput: out, standardError: err)
  if let directory { io.currentDirectory = directory }
  if let stdin {
    let url = temporaryFile(stdin)
    io.openStandardInput = { FileHandle(forReadingAtPath: url.path)! }
  }
  let status = VCProtoCommand.main(arguments, io)
  return (status, out.text, err.text)
}

/// Runs `vcproto-dev` in process with buffered streams and stand-in generators: each writes one
/// file (`model.swift`, `<version>.json`), and the spec renderer marks its input.
func runDeveloperCommand(_ arguments: [String], stdin: String? = nil) -> (status: Int32, out: String, err: String) {
  let out = OutputSink()
  let err = OutputSink()
  var io = CommandIO(standardOutput: out, standardError: err)
  if let stdin {
    let url = temporaryFile(stdin)
    io.openStandardInput = { FileHandle(forReadingAtPath: url.path)! }
  }
  let status = VCProtoCommand.developerMain(arguments, io, tools: standInTools)
  return (status, out.text, err.text)
}

/// Generators that stand in for VCProtoCodegen's in the CLI's tests.
let standInTools = DeveloperTools(
  modelFiles: { [(path: "model.swift", contents: "// model\n")] },
  schemaFiles: { [(path: "\($0.version).json", contents: "{}\n")] },
  referencePath: "MESSAGES.md",
  renderSpec: { examples, standards in (standards + "<!-- rendered -->\n", "\(examples.count) examples\n") })

/// Writes text to a fresh temporary file.
func temporaryFile(_ text: String, name: String = "capture") -> URL {
  temporaryFile(bytes: Array(text.utf8), name: name)
}

/// Writes bytes to a fresh temporary file.
func temporaryFile(bytes: [UInt8], name: String = "capture") -> URL {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vcproto-cli-tests-\(UUID().uuidString)")
  try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let url = dir.appendingPathComponent(name)
  try! Data(bytes).write(to: url)
  return url
}

/// Every item a reader yields.
func readAll(_ reader: CaptureReader) throws -> [CapturedFrame] {
  var frames: [CapturedFrame] = []
  while let f = try reader.next() { frames.append(f) }
  return frames
}

/// The text of a frame's payload.
func text(_ frame: CapturedFrame) -> String? {
  if case .text(let bytes)? = frame.payload { return String(decoding: bytes, as: UTF8.self) }
  return nil
}

/// The package root (two levels above this file's folder).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// The fake API key used in the samples.
let fakeKey = "untethered-00112233445566778899aabbccddeeff"
