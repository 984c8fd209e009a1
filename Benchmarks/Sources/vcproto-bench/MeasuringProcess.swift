import Foundation

/// Runs a measurement in a process of its own: this executable again, with other arguments.
///
/// Why: a wall-time figure depends on where the process's code, stack and heap land (address space
/// layout randomisation), so one process measures one layout. The engine benchmarks
/// (``EngineBenchmark``, ``ServerEngineBenchmark``) report the median over several such processes.
enum MeasuringProcess {
  /// The lines this executable prints when run with `arguments`; stops the benchmark when the
  /// process fails.
  static func output(_ arguments: [String]) throws -> [String] {
    let process = Process()
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    process.executableURL = URL(fileURLWithPath: me)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fatalError("a measuring process failed: \(output)") }
    return output.split(separator: "\n").map(String.init)
  }
}

/// What one process measured of one part of a benchmark (``EngineBenchmark``: the whole corpus, its
/// `session_history` frames, its other frames; ``ServerEngineBenchmark``: one part): ns a frame of
/// each contender (the medians of its rounds) and the per-round ratio of engines to decoding, minus
/// one. A measuring process prints it as one line (``line``) for the process that started it
/// (``MeasuringProcess/figures(_:)``).
struct ProcessFigures {
  /// Which part of the benchmark.
  var part = 0
  var decodeNs = 0.0
  var engineNs = 0.0
  /// The median per-round ratio, and the lowest and highest.
  var median = 0.0
  var lowest = 0.0
  var highest = 0.0
  /// The ratio of the fastest rounds.
  var fastest = 0.0
  /// The ratio of the per-block minima, summed (``ServerEngineBenchmark``; 0 where not measured).
  var minima = 0.0

  /// The figures of rounds timing `decode` and `engines` (seconds a round) over `frames` frames a round.
  init(part: Int = 0, decode: [Double], engines: [Double], frames: Int) {
    let n = Double(max(1, frames))
    let ratios = zip(engines, decode).map { $0 / $1 - 1 }
    self.part = part
    decodeNs = EngineBenchmark.median(decode) / n * 1e9
    engineNs = EngineBenchmark.median(engines) / n * 1e9
    median = EngineBenchmark.median(ratios)
    lowest = ratios.min() ?? 0
    highest = ratios.max() ?? 0
    fastest = (engines.min() ?? 0) / (decode.min() ?? 1) - 1
  }

  private static let tag = "figures"

  /// One line of text, read back by ``init(line:)``.
  var line: String {
    "\(Self.tag) \(part) \(decodeNs) \(engineNs) \(median) \(lowest) \(highest) \(fastest) \(minima)"
  }

  /// The figures `line` carries; `nil` for any other line.
  init?(line: String) {
    let v = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard line.hasPrefix(Self.tag + " "), v.count == 8, let part = Int(exactly: v[0]) else { return nil }
    self.part = part
    (decodeNs, engineNs, median, lowest, highest, fastest, minima) = (v[1], v[2], v[3], v[4], v[5], v[6], v[7])
  }
}

extension MeasuringProcess {
  /// The ``ProcessFigures`` a process running this executable with `arguments` prints, `parts` of
  /// them (part numbers 0..<parts, each once), in part order; stops the benchmark otherwise.
  static func figures(_ arguments: [String], parts: Int) throws -> [ProcessFigures] {
    let output = try output(arguments)
    let figures = output.compactMap(ProcessFigures.init(line:)).sorted { $0.part < $1.part }
    guard figures.map(\.part) == Array(0..<parts) else { fatalError("a measuring process printed \(output)") }
    return figures
  }
}
