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
