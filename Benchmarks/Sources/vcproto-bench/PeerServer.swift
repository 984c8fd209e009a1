import Foundation
import VCProto

/// vcproto's side of the peer comparison (`Benchmarks/peers.py`): the contenders in Python cannot run in
/// this process, so this one answers timing requests over a pipe, and the driver alternates them with its
/// own in one run.
///
///   vcproto-bench peer-server --protocol V --frames N --output corpus.jsonl
///
/// writes the corpus (`Corpus.generate`, the frames every other benchmark measures) as JSON Lines, prints
/// `ready FRAMES BYTES`, then answers each line `decode SET` or `encode SET` read from standard input
/// with the thread CPU seconds of one pass over those frames (`all`; `small`: the frames under 1 KB;
/// `small/TYPE`: those of one `type`), and `quit` by exiting. Encoding encodes the typed messages
/// decoded beforehand, as MessageEncoder is used.
enum PeerServer {
  static func run(count: Int, version: String, output: String) throws {
    let corpus = Corpus.generate(count: count, protocolVersion: version)
    var lines = [UInt8]()
    lines.reserveCapacity(corpus.bytes + corpus.frames.count)
    for frame in corpus.frames {
      precondition(!frame.contains(0x0A), "a corpus frame spans lines")
      lines += frame
      lines.append(0x0A)
    }
    guard FileManager.default.createFile(atPath: output, contents: Data(lines)) else {
      fatalError("cannot write \(output)")
    }
    let decoder = MessageDecoder(options: ValidationOptions(version: ProtocolVersion(rawValue: version)!))
    let encoder = MessageEncoder()
    var sets = ["all": corpus.frames, "small": corpus.frames.filter { $0.count < 1024 }]
    for frame in sets["small"]! { sets["small/" + typeName(frame), default: []].append(frame) }
    var typed: [String: [AnyMessage]] = [:]
    for (name, frames) in sets { typed[name] = try frames.map { try decoder.decode($0) } }
    print("ready \(corpus.frames.count) \(corpus.bytes)")
    fflush(nil)  // every stream: standard output is what the driver waits on
    while let line = readLine() {
      let words = line.split(separator: " ").map(String.init)
      if words == ["quit"] { return }
      guard words.count == 2, let frames = sets[words[1]], let messages = typed[words[1]] else {
        fatalError("peer-server: unknown request \(line)")
      }
      var sink = 0
      let seconds: Double
      switch words[0] {
      case "decode":
        seconds = cpuSeconds { for f in frames { if (try? decoder.decode(f)) != nil { sink += 1 } } }
        precondition(sink == frames.count, "peer-server: a corpus frame failed to decode")
      case "encode":
        seconds = cpuSeconds { for m in messages { sink &+= encoder.encode(m).count } }
      default:
        fatalError("peer-server: unknown request \(line)")
      }
      print(String(format: "%.9f", seconds))
      fflush(nil)  // every stream: standard output is what the driver waits on
    }
  }

  /// The `type` of a corpus frame (each opens with `{"type":"`).
  static func typeName(_ frame: [UInt8]) -> String {
    let value = frame.dropFirst(9).prefix { $0 != UInt8(ascii: "\"") }
    return String(decoding: value, as: UTF8.self)
  }

  /// Thread CPU seconds of one run of `body`.
  static func cpuSeconds(_ body: () -> Void) -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    body()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
  }
}
