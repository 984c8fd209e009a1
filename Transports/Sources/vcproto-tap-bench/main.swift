// vcproto-tap-bench: messages through vcproto-tap against a direct connection, on loopback, all in
// one process (an echo-style backend and the app on the Swift transports, the tap between them).
//
// The app sends a valid 0.2.0 `prompt` whose text makes the frame SIZE bytes; the backend answers
// each with a valid `command_output` of the same size, so the tap checks (and captures) real,
// clean frames both ways. Latency: sequential round trips, p50 and p99, direct and through the tap
// (added = tap - direct at the same percentile). Throughput: the app sends COUNT messages without
// waiting for answers (each send returns once written); the backend answers only the last.
//
//   vcproto-tap-bench [--smoke]
import Foundation
import VCProto
import VCProtoNIO
import VCProtoTap

let smoke = CommandLine.arguments.contains("--smoke")

/// A frame of exactly `size` bytes: `{"type":TYPE,...,"text":"xxx…"}`.
func frame(_ prefix: String, size: Int) -> [UInt8] {
  let suffix = "\"}"
  let padding = max(0, size - prefix.utf8.count - suffix.utf8.count)
  return Array((prefix + String(repeating: "x", count: padding) + suffix).utf8)
}

func prompt(_ size: Int) -> WebSocketMessage { .text(frame(#"{"type":"prompt","text":""#, size: size)) }
func output(_ size: Int) -> WebSocketMessage {
  .text(frame(#"{"type":"command_output","command_session_id":"c1","stream":"stdout","text":""#, size: size))
}

/// The backend: answers each prompt with a command_output of the same size, or, for a prompt whose
/// text starts with "n", only the last of a burst (the text's length says nothing: the count is
/// in the frame after "n").
func startBackend() async throws -> WebSocketListener {
  let listener = try await WebSocketListener.bind(host: "127.0.0.1", port: 0)
  Task {
    while let connection = await listener.acceptConnection() {
      Task {
        while case .message(let message) = await connection.receive() {
          let bytes = message.bytes
          // Burst frames carry "burst" right after the text's opening quote; only "burst-last" is answered.
          let head = String(decoding: bytes.prefix(40), as: UTF8.self)
          if head.contains("\"text\":\"burst-") && !head.contains("\"text\":\"burst-last") { continue }
          try await connection.send(output(bytes.count))
        }
      }
    }
  }
  return listener
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

struct Latency {
  var p50: Double
  var p99: Double
}

func latency(_ url: WebSocketURL, size: Int, rounds: Int) async throws -> Latency {
  let app = try await WebSocketClient.connect(to: url)
  let message = prompt(size)
  for _ in 0..<min(50, rounds) {  // warm-up
    try await app.send(message)
    _ = await app.receive()
  }
  var samples: [Double] = []
  samples.reserveCapacity(rounds)
  for _ in 0..<rounds {
    let start = DispatchTime.now().uptimeNanoseconds
    try await app.send(message)
    guard case .message = await app.receive() else { fatalError("backend closed") }
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000)
  }
  await app.close()
  samples.sort()
  return Latency(p50: percentile(samples, 0.5), p99: percentile(samples, 0.99))
}

/// Messages per second one way.
func throughput(_ url: WebSocketURL, size: Int, count: Int) async throws -> Double {
  let app = try await WebSocketClient.connect(to: url)
  let burst = WebSocketMessage.text(frame(#"{"type":"prompt","text":"burst-"#, size: size))
  let last = WebSocketMessage.text(frame(#"{"type":"prompt","text":"burst-last"#, size: size))
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<(count - 1) { try await app.send(burst) }
  try await app.send(last)
  guard case .message = await app.receive() else { fatalError("backend closed") }
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  await app.close()
  return Double(count) / seconds
}

func format(_ value: Double, _ decimals: Int = 0) -> String { String(format: "%.\(decimals)f", value) }

let backend = try await startBackend()
let direct = WebSocketURL("ws://127.0.0.1:\(backend.port)")!
let capture = FileManager.default.temporaryDirectory.appendingPathComponent("vcproto-tap-bench-\(getpid()).jsonl").path
let tap = try await TapBenchmarkSupport.start(upstream: direct, capture: capture)
let tapped = WebSocketURL("ws://127.0.0.1:\(tap.port)")!

let sizes = smoke ? [256, 16_384] : [128, 1_024, 16_384, 262_144]
print("vcproto-tap-bench: loopback, one process; the tap checks every frame and writes the capture")
print("")
print("| frame | direct p50 | tap p50 | added p50 | direct p99 | tap p99 | added p99 |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for size in sizes {
  let rounds = smoke ? 50 : (size >= 262_144 ? 400 : 3_000)
  // Alternate direct and tap twice, keep each one's better run (less noise from the machine).
  var d = try await latency(direct, size: size, rounds: rounds)
  var t = try await latency(tapped, size: size, rounds: rounds)
  if !smoke {
    let d2 = try await latency(direct, size: size, rounds: rounds)
    let t2 = try await latency(tapped, size: size, rounds: rounds)
    if d2.p50 < d.p50 { d = d2 }
    if t2.p50 < t.p50 { t = t2 }
  }
  print(
    "| \(size) B | \(format(d.p50)) µs | \(format(t.p50)) µs | \(format(t.p50 - d.p50)) µs | \(format(d.p99)) µs"
      + " | \(format(t.p99)) µs | \(format(t.p99 - d.p99)) µs |")
}
print("")
print("| frame | direct msg/s | tap msg/s | direct MB/s | tap MB/s | tap / direct |")
print("|---:|---:|---:|---:|---:|---:|")
for size in sizes {
  let count = smoke ? 200 : (size >= 262_144 ? 1_000 : (size >= 16_384 ? 10_000 : 50_000))
  let d = try await throughput(direct, size: size, count: count)
  let t = try await throughput(tapped, size: size, count: count)
  print(
    "| \(size) B | \(format(d)) | \(format(t)) | \(format(d * Double(size) / 1e6, 1)) | \(format(t * Double(size) / 1e6, 1))"
      + " | \(format(t / d, 2)) |")
}
await tap.stop()
try? FileManager.default.removeItem(atPath: capture)
await backend.close()
