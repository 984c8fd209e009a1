import Foundation
import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

/// `validate --jobs N`: frames checked on N threads a window at a time give exactly the outcomes of
/// one thread, in the same order, however the window cuts the capture (a handshake inside a window,
/// interleaved connections, authenticated frames), and memory is bounded by the window.
@Suite struct ParallelValidationTests {
  /// Every outcome of a run, as text: position, direction, type, version, findings and the message.
  func outcomes(
    _ bytes: [UInt8], name: String, workers: Int, window: CaptureValidation.Window = .init(),
    version: ProtocolVersion = .v0_5_0
  ) throws -> [String] {
    let format = CaptureFormat.detect(path: name, prefix: bytes)
    var validation = CaptureValidation(
      checker: FrameChecker(directionOverride: nil, strict: false, opener: .standard), defaultVersion: version)
    validation.workers = workers
    validation.window = window
    var lines: [String] = []
    try validation.run(format.reader(for: ByteSource(bytes: bytes))) { o in
      lines.append(
        "\(o.position) \(String(describing: o.direction)) \(o.messageType ?? "-") \(String(describing: o.versionUse))"
          + " \(o.startsConversation) \(o.isFrame) \(String(describing: o.envelope))"
          + " \(o.findings.map(\.description)) \(o.message.map { JSONValue.object($0).jsonText } ?? "-")")
    }
    return lines
  }

  /// The samples (a handshake on the first line, faulty conversations, a HAR) and a capture of
  /// interleaved connections with handshakes and errors: the same outcomes on 1, 2 and 3 threads,
  /// with windows of 1 to 7 frames and of a few hundred bytes.
  @Test func threadsGiveTheOutcomesOfOneThread() throws {
    let samples = try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent("Samples").path)
    #expect(samples.count >= 6)
    var captures = try samples.sorted().map { name in
      (name, Array(try Data(contentsOf: packageRoot.appendingPathComponent("Samples/\(name)"))))
    }
    captures.append(("interleaved.jsonl", Array(interleaved.utf8)))
    for (name, bytes) in captures {
      let one = try outcomes(bytes, name: name, workers: 1)
      #expect(one.count >= 3, "\(name)")
      for workers in [2, 3] {
        for frames in [1, 2, 3, 7] {
          let window = CaptureValidation.Window(frames: frames, bytes: 1 << 20)
          #expect(
            try outcomes(bytes, name: name, workers: workers, window: window) == one, "\(name) \(workers) \(frames)")
        }
        let small = CaptureValidation.Window(frames: 512, bytes: 300)
        #expect(try outcomes(bytes, name: name, workers: workers, window: small) == one, "\(name) \(workers) bytes")
      }
    }
  }

  /// `validate --jobs`: any number of threads prints what one does; 0 and 65 are usage errors.
  @Test func jobsOptionPrintsWhatOneThreadPrints() {
    for sample in ["Samples/faulty-0.5.0.jsonl", "Samples/faulty-0.2.0.jsonl", "Samples/capture.har"] {
      let one = runCommand(["validate", "--jobs", "1", "--format", "json", sample], directory: packageRoot.path)
      #expect(one.status == 1 || sample.hasSuffix(".har"), "\(sample)")
      for jobs in ["2", "5"] {
        let many = runCommand(["validate", "--jobs", jobs, "--format", "json", sample], directory: packageRoot.path)
        #expect(many.out == one.out && many.status == one.status, "\(sample) --jobs \(jobs)")
      }
    }
    for bad in ["0", "65", "two"] {
      let r = runCommand(["validate", "--jobs", bad, "Samples/faulty-0.5.0.jsonl"], directory: packageRoot.path)
      #expect(r.status == 2 && r.err.contains("'--jobs'"), "\(bad): \(r.err)")
    }
  }

  /// Two connections interleaved, each with its handshake partway, a frame of the old version after
  /// the new one is agreed, and errors on both.
  let interleaved =
    [
      #"{"connection":1,"direction":"server_to_client","time":1,"data":"{\"type\":\"pong\"}"}"#,
      #"{"connection":2,"direction":"server_to_client","time":1,"data":"{\"type\":\"hello\",\"message\":\"m\",\"version\":\"0.2.0\",\"auth_version\":1,\"instructions\":\"i\"}"}"#,
      #"{"connection":1,"direction":"server_to_client","time":2,"data":"{\"type\":\"hello\",\"message\":\"m\",\"version\":\"0.5.0\",\"auth_version\":1,\"instructions\":\"i\"}"}"#,
      #"{"connection":2,"direction":"client_to_server","time":2,"data":"{\"type\":\"subscribe\",\"session_id\":\"s\"}"}"#,
      #"{"connection":1,"direction":"client_to_server","time":3,"data":"{\"type\":\"connect\",\"api_key\":\"k\",\"protocol_version\":\"0.5.0\"}"}"#,
      #"{"connection":2,"direction":"client_to_server","time":3,"data":"{\"type\":\"connect\",\"api_key\":\"k\"}"}"#,
      #"{"connection":1,"direction":"server_to_client","time":4,"data":"{\"type\":\"connected\",\"message\":\"ok\",\"session_id\":\"s\",\"negotiated_protocol_version\":\"0.5.0\"}"}"#,
      #"{"connection":2,"direction":"server_to_client","time":4,"data":"{\"type\":\"connected\",\"message\":\"ok\",\"session_id\":\"s\"}"}"#,
      #"{"connection":1,"direction":"server_to_client","time":5,"data":"{\"type\":\"command_history\",\"sessions\":[],\"limit\":50}"}"#,
      #"{"connection":2,"direction":"server_to_client","time":5,"data":"{\"type\":\"session_list\",\"sessions\":[],\"total_count\":0}"}"#,
      #"{"connection":1,"direction":"client_to_server","time":6,"data":"{\"type\":\"ping\"}"}"#,
      #"{"connection":3,"direction":"client_to_server","time":6,"data":"{\"type\":\"ping\",\"extra\":1}"}"#,
      #"not json"#,
      #"{"connection":2,"direction":"client_to_server","time":7,"data":"{\"type\":\"message_ack\",\"message_id\":\"x\"}"}"#,
    ].joined(separator: "\n") + "\n"

  /// A read error partway: the frames read before it are checked and emitted (in a window or not),
  /// then the error ends the run.
  @Test func aReadErrorComesAfterTheFramesBeforeIt() throws {
    for workers in [1, 2] {
      var validation = CaptureValidation(
        checker: FrameChecker(directionOverride: nil, strict: false, opener: .standard), defaultVersion: .v0_5_0)
      validation.workers = workers
      let reader = CountingReader(frames: 5, failing: true)
      var emitted = 0
      #expect(throws: CountingReader.Failure.self) {
        try validation.run(reader) { _ in emitted += 1 }
      }
      #expect(emitted == 5, "\(workers)")
    }
  }

  /// At most a window of frames is read ahead of the ones emitted, and the one that does not fit.
  @Test func framesReadAheadAreBoundedByTheWindow() throws {
    for (frames, bytes) in [(4, 1 << 20), (512, 100)] {
      let reader = CountingReader(frames: 50, failing: false)
      try validation(window: CaptureValidation.Window(frames: frames, bytes: bytes)).run(reader) { _ in
        reader.emitted += 1
      }
      #expect(reader.emitted == 50)
      // 100 bytes: six 16-byte frames fill 96; the seventh is read and waits for the next window.
      #expect(reader.mostAhead == (frames == 4 ? 4 : 7), "\(frames) \(bytes)")
    }
  }

  /// A frame larger than the window's bytes is checked alone: everything before it is emitted before
  /// it, and nothing after it is read before it is emitted.
  @Test func aLargeFrameIsCheckedAlone() throws {
    let reader = CountingReader(frames: 8, failing: false, sizes: [16, 16, 16, 500, 16, 16, 16, 16])
    try validation(window: CaptureValidation.Window(frames: 512, bytes: 100)).run(reader) { _ in
      reader.emitted += 1
    }
    #expect(reader.emitted == 8)
    // Emitted when each frame was read: the large one (4th) waited for the three before it; the 5th
    // was read only after the large one was emitted.
    #expect(reader.emittedWhenYielded == [0, 0, 0, 0, 4, 4, 4, 4])
  }

  func validation(window: CaptureValidation.Window) -> CaptureValidation {
    var validation = CaptureValidation(
      checker: FrameChecker(directionOverride: nil, strict: false, opener: .standard), defaultVersion: .v0_5_0)
    validation.workers = 2
    validation.window = window
    return validation
  }
}

/// Yields `frames` pings (16 bytes each unless `sizes` says), then ends or throws; counts how far it
/// got ahead of what was emitted.
private final class CountingReader: CaptureReader {
  struct Failure: Error {}

  let frames: Int
  let failing: Bool
  let sizes: [Int]
  var yielded = 0
  var emitted = 0
  var mostAhead = 0
  var emittedWhenYielded: [Int] = []
  var bytesRead: Int { yielded * 16 }

  init(frames: Int, failing: Bool, sizes: [Int] = []) {
    self.frames = frames
    self.failing = failing
    self.sizes = sizes
  }

  func next() throws -> CapturedFrame? {
    guard yielded < frames else {
      if failing { throw Failure() }
      return nil
    }
    let size = yielded < sizes.count ? sizes[yielded] : 16
    yielded += 1
    mostAhead = max(mostAhead, yielded - emitted)
    emittedWhenYielded.append(emitted)
    let ping = Array(#"{"type":"ping"}"#.utf8)
    return CapturedFrame(
      position: .line(yielded), payload: .text(ping + Array(repeating: 0x20, count: size - ping.count)))
  }
}
