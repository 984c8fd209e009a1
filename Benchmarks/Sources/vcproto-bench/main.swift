import CZlib
import Foundation
import VCProto

// vcproto-bench: every contender on the same in-memory corpus, in one run, reported as ratios.
//
//   vcproto-bench [--frames N] [--repetitions R]   full report
//   vcproto-bench --smoke                            tiny corpus, one repetition, correctness checks
//   vcproto-bench corpus --megabytes M --output F    write the corpus as JSON Lines (for vcproto validate)
//
// `--protocol 0.5.0` (any mode; default 0.2.0): the 0.5.0 corpus, decoded and validated as 0.5.0.

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
  guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
  return arguments[i + 1]
}
let protocolVersion = option("--protocol") ?? "0.2.0"
guard ["0.2.0", "0.5.0"].contains(protocolVersion) else {
  fatalError("--protocol must be 0.2.0 or 0.5.0, not \(protocolVersion)")
}
let options = ValidationOptions(version: ProtocolVersion(rawValue: protocolVersion)!)

if arguments.first == "corpus" {
  let megabytes = Int(option("--megabytes") ?? "10") ?? 10
  let path = option("--output") ?? "corpus.jsonl"
  _ = FileManager.default.createFile(atPath: path, contents: nil)
  guard let handle = FileHandle(forWritingAtPath: path) else { fatalError("cannot write \(path)") }
  var generator = Generator(rng: SplitMix64(seed: 20_260_111), protocolVersion: protocolVersion)
  var written = 0
  var frames = 0
  while written < megabytes << 20 {
    var chunk = Data()
    for _ in 0..<1000 {
      chunk.append(contentsOf: generator.frame().utf8)
      chunk.append(0x0A)
    }
    handle.write(chunk)
    written += chunk.count
    frames += 1000
  }
  try handle.close()
  print("wrote \(frames) frames, \(written) bytes to \(path)")
  exit(0)
}

// `vcproto-bench profile --frames N --min-bytes A --max-bytes B --rounds R [--contender C] [--type T]`:
// one contender only (vcproto's decode by default; jsondecoder, vcproto-encode, jsonencoder), on the
// frames of one `type` with `--type`, for `valgrind --tool=callgrind` (instruction counts do not depend
// on the machine's load).
if arguments.first == "profile" {
  let count = Int(option("--frames") ?? "4000") ?? 4000
  let maxBytes = Int(option("--max-bytes") ?? "1023") ?? 1023
  let rounds = Int(option("--rounds") ?? "5") ?? 5
  let minBytes = Int(option("--min-bytes") ?? "0") ?? 0
  let type = option("--type")
  let frames = Corpus.generate(count: count, protocolVersion: protocolVersion).frames.filter {
    $0.count <= maxBytes && $0.count >= minBytes && (type == nil || PeerServer.typeName($0) == type)
  }
  let decoder = MessageDecoder(options: options)
  var processed = 0
  let jsonDecoder = JSONDecoder()
  jsonDecoder.userInfo[.protocolVersion] = protocolVersion
  switch option("--contender") {
  case "jsondecoder":
    let datas = frames.map { Data($0) }
    for _ in 0..<rounds {
      for d in datas { if (try? jsonDecoder.decode(CBFrame.self, from: d)) != nil { processed += 1 } }
    }
  case "vcproto-encode":
    let encoder = MessageEncoder()
    let messages = try frames.map { try decoder.decode($0) }
    for _ in 0..<rounds { for m in messages { processed += encoder.encode(m).isEmpty ? 0 : 1 } }
  case "jsonencoder":
    let jsonEncoder = JSONEncoder()
    let messages = try frames.map { try jsonDecoder.decode(CBFrame.self, from: Data($0)) }
    for _ in 0..<rounds { for m in messages { if (try? jsonEncoder.encode(m)) != nil { processed += 1 } } }
  default:
    for _ in 0..<rounds { for f in frames { if (try? decoder.decode(f)) != nil { processed += 1 } } }
  }
  print("processed \(processed) of \(frames.count * rounds)")
  exit(0)
}

// `vcproto-bench peer-server --protocol V --frames N --output F`: vcproto's side of Benchmarks/peers.py
// (timing requests over standard input; see PeerServer).
if arguments.first == "peer-server" {
  try PeerServer.run(
    count: Int(option("--frames") ?? "20000") ?? 20000, version: protocolVersion,
    output: option("--output") ?? "peer-corpus.jsonl")
  exit(0)
}

/// The engine workloads named by `--workload steady|first-contact|many-open|all-subscribed|all` (`fallback`
/// when absent).
func engineWorkloads(default fallback: String) -> [EngineBenchmark.Kind] {
  let name = option("--workload") ?? fallback
  if name == "all" { return EngineBenchmark.Kind.allCases }
  guard let kind = EngineBenchmark.Kind(rawValue: name) else {
    fatalError("--workload must be steady, first-contact, many-open, all-subscribed or all, not \(name)")
  }
  return [kind]
}

// `vcproto-bench engine-profile --contender C [--frames N] [--only history|other] [--workload W] [--passes P]`: one
// engine-benchmark contender on one workload (steady by default), for callgrind
// (`Benchmarks/instructions.sh --engine`).
if arguments.first == "engine-profile" {
  guard let kind = engineWorkloads(default: "steady").first, option("--workload") != "all" else {
    fatalError("engine-profile runs one workload: --workload steady, first-contact, many-open or all-subscribed")
  }
  try EngineBenchmark.profile(
    count: Int(option("--frames") ?? "3000") ?? 3000, version: protocolVersion, kind: kind,
    contender: option("--contender") ?? "pipeline", only: option("--only"),
    passes: Int(option("--passes") ?? "1") ?? 1)
  exit(0)
}

// `vcproto-bench engine-server-profile --contender engine|decode [--protocol V] [--frames N] [--only TYPE]`:
// one server-engine contender, for callgrind (`Benchmarks/instructions.sh --engine-server`).
if arguments.first == "engine-server-profile" {
  try ServerEngineBenchmark.profile(
    count: Int(option("--frames") ?? "20000") ?? 20_000, version: protocolVersion,
    contender: option("--contender") ?? "engine", only: option("--only"))
  exit(0)
}

// `vcproto-bench engine-server [--protocol V] [--frames N] [--repetitions R] [--passes P] [--block B]
// [--processes K] [--only TYPE] [--smoke]`: the server engine (bytes -> engine -> typed event) against
// MessageDecoder alone on the same client frames, in rounds of P passes over them (enough for 40,000
// frames a contender by default), the median over K processes (5; `--child`: one measuring process).
if arguments.first == "engine-server" {
  let smoke = arguments.contains("--smoke")
  try ServerEngineBenchmark.run(
    count: Int(option("--frames") ?? (smoke ? "2000" : "20000")) ?? 20_000, version: protocolVersion,
    repetitions: Int(option("--repetitions") ?? (smoke ? "1" : "21")) ?? 21,
    passes: option("--passes").flatMap { Int($0) },
    block: option("--block").flatMap { Int($0) },
    processes: Int(option("--processes") ?? (smoke ? "1" : "5")) ?? 5, child: arguments.contains("--child"),
    smoke: smoke, only: option("--only"))
  exit(0)
}

// `vcproto-bench engine [--protocol V] [--frames N] [--repetitions R] [--workload W] [--processes K] [--smoke]`:
// the connection engines' cost per frame, on the steady, first-contact, many-open and all-subscribed workloads (all
// by default); the median over K (5) measuring processes (`--processes 1`: in this process).
if arguments.first == "engine" {
  let smoke = arguments.contains("--smoke")
  try EngineBenchmark.run(
    count: Int(option("--frames") ?? (smoke ? "400" : "20000")) ?? 20000, version: protocolVersion,
    kinds: engineWorkloads(default: "all"), repetitions: Int(option("--repetitions") ?? (smoke ? "1" : "7")) ?? 7,
    processes: Int(option("--processes") ?? (smoke ? "1" : "5")) ?? 5, child: arguments.contains("--child"),
    smoke: smoke)
  exit(0)
}

let smoke = arguments.contains("--smoke")
let count = Int(option("--frames") ?? (smoke ? "400" : "20000")) ?? 20000
let repetitions = Int(option("--repetitions") ?? (smoke ? "1" : "7")) ?? 7

let corpus = Corpus.generate(count: count, protocolVersion: protocolVersion)
let sizes = corpus.frames.map(\.count).sorted()
print(
  "corpus (protocol \(protocolVersion)): \(corpus.frames.count) frames, \(corpus.bytes) bytes; median \(sizes[sizes.count / 2]) B, "
    + "\(sizes.filter { $0 > 11_000 }.count * 100 / sizes.count) % over 11 KB, "
    + "\(corpus.frames.filter { $0.contains { $0 >= 0x80 } }.count * 100 / corpus.frames.count) % non-ASCII")

// Every generated frame must be valid, or the comparison would measure error paths.
let validator = Validator(options: options)
for frame in corpus.frames {
  let report = validator.validate(frame)
  guard report.isValid else {
    fatalError(
      "generated an invalid frame: \(report.findings) in \(String(decoding: frame, as: UTF8.self).prefix(300))")
  }
}

let decoder = MessageDecoder(options: options)
let encoder = MessageEncoder()
let jsonDecoder = JSONDecoder()
jsonDecoder.userInfo[.protocolVersion] = protocolVersion
let jsonEncoder = JSONEncoder()

// Correctness: vcproto's typed decode gives the same values as JSONDecoder on the whole corpus.
func normalized(_ any: Any) -> Any {
  if let d = any as? [String: Any] { return d.filter { !($0.value is NSNull) }.mapValues(normalized) }
  if let a = any as? [Any] { return a.map(normalized) }
  return any
}
var compared = 0
for frame in corpus.frames {
  let typed = encoder.encode(try decoder.decode(frame))
  let codable = try jsonEncoder.encode(try jsonDecoder.decode(CBFrame.self, from: Data(frame)))
  let a = normalized(try JSONSerialization.jsonObject(with: Data(typed))) as! NSObject
  let b = normalized(try JSONSerialization.jsonObject(with: Data(codable))) as! NSObject
  guard a.isEqual(b) else {
    fatalError("vcproto and JSONDecoder disagree on \(String(decoding: frame, as: UTF8.self).prefix(200))")
  }
  compared += 1
}
print("correctness: vcproto and JSONDecoder agree on all \(compared) frames")

struct Row {
  var name: String
  var seconds: Double
  var bytes: Int
  var messages: Int
  var mbps: Double { Double(bytes) / seconds / 1e6 }
  var perSecond: Double { Double(messages) / seconds }
}

func pad(_ s: String, _ width: Int) -> String {
  s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
}

func report(_ title: String, _ rows: [Row], baselines: [String]) {
  print("\n## \(title)")
  print(pad("contender", 34) + "MB/s      msg/s     " + baselines.map { "vs \($0)" }.joined(separator: "  "))
  for row in rows {
    var line = pad(row.name, 34)
    line += String(format: "%7.1f  %9.0f   ", row.mbps, row.perSecond)
    for b in baselines {
      if let base = rows.first(where: { $0.name == b }) {
        line += String(format: "%6.2fx   ", base.seconds / row.seconds)
      }
    }
    print(line)
  }
}

for (label, subset) in [
  ("all frames", corpus), ("frames under 1 KB", corpus.filtered { $0 < 1024 }),
  ("frames of 11 KB and more", corpus.filtered { $0 >= 11_000 }),
] where !subset.frames.isEmpty {
  let frames = subset.frames
  let datas = frames.map { Data($0) }
  var rows: [Row] = []
  // Interleave contenders in each repetition round by measuring them one after another.
  let decodeTimes = try fastestInterleaved([
    { for f in frames { _ = try decoder.decode(f) } },
    { for d in datas { _ = try jsonDecoder.decode(CBFrame.self, from: d) } },
    { for d in datas { _ = try JSONSerialization.jsonObject(with: d) } },
    { for f in frames { _ = validator.validate(f) } },
  ])
  let (vc, jd, js, vo) = (decodeTimes[0], decodeTimes[1], decodeTimes[2], decodeTimes[3])
  rows.append(Row(name: "vcproto decode+validate (typed)", seconds: vc, bytes: subset.bytes, messages: frames.count))
  rows.append(Row(name: "vcproto validate only", seconds: vo, bytes: subset.bytes, messages: frames.count))
  rows.append(Row(name: "JSONDecoder (CodingKeys)", seconds: jd, bytes: subset.bytes, messages: frames.count))
  rows.append(Row(name: "JSONSerialization", seconds: js, bytes: subset.bytes, messages: frames.count))
  report("decode, \(label)", rows, baselines: ["JSONDecoder (CodingKeys)", "JSONSerialization"])

  let typed = try frames.map { try decoder.decode($0) }
  let codable = try datas.map { try jsonDecoder.decode(CBFrame.self, from: $0) }
  let encodeTimes = try fastestInterleaved([
    { for m in typed { _ = encoder.encode(m) } },
    { for m in codable { _ = try jsonEncoder.encode(m) } },
  ])
  let (ve, je) = (encodeTimes[0], encodeTimes[1])
  report(
    "encode, \(label)",
    [
      Row(name: "vcproto MessageEncoder", seconds: ve, bytes: subset.bytes, messages: frames.count),
      Row(name: "JSONEncoder", seconds: je, bytes: subset.bytes, messages: frames.count),
    ], baselines: ["JSONEncoder"])
}

// Envelope: vcproto's envelope against zlib's one-shot compress2/uncompress at the same level, on the
// frames of 1 KB and more (the ones a sender seals): size (compression ratio, bytes over raw zlib)
// and time, for levels 1, 3, 6 and 9 in the binary form, then the text form at the default level.
let big = corpus.frames.filter { $0.count >= 1024 }
let bigBytes = big.reduce(0) { $0 + $1.count }
let defaultLevel = EnvelopeConfiguration.default.level

/// zlib's compress2 at `level`, into a buffer of exactly the compressed size.
func rawCompress(_ frame: [UInt8], level: Int) -> [UInt8] {
  let bound = Int(compressBound(uLong(frame.count)))
  return [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
    var length = uLong(bound)
    let status = compress2(buffer.baseAddress, &length, frame, uLong(frame.count), Int32(level))
    precondition(status == Z_OK, "compress2 failed: \(status)")
    count = Int(length)
  }
}

/// zlib's uncompress into a buffer of the known inflated size.
func rawUncompress(_ compressed: [UInt8], count expected: Int) -> [UInt8] {
  [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
    var length = uLong(expected)
    let status = uncompress(buffer.baseAddress, &length, compressed, uLong(compressed.count))
    precondition(status == Z_OK && Int(length) == expected, "uncompress failed: \(status)")
    count = Int(length)
  }
}

func megabytesPerSecond(_ seconds: Double) -> Double { Double(bigBytes) / seconds / 1e6 }

/// This thread's CPU time, in seconds (unaffected by time spent descheduled on a busy machine).
func threadCPUTime() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// CPU seconds of one run of `body`.
func once(_ body: () throws -> Void) rethrows -> Double {
  let start = threadCPUTime()
  try body()
  return threadCPUTime() - start
}

/// Runs every contender once per round, interleaved, and keeps each one's fastest round (CPU time):
/// on a shared machine the minimum is the least disturbed measurement of deterministic CPU work.
func fastestInterleaved(_ contenders: [() throws -> Void]) throws -> [Double] {
  var best = [Double](repeating: .infinity, count: contenders.count)
  for _ in 0..<repetitions {
    for (index, body) in contenders.enumerated() { best[index] = min(best[index], try once(body)) }
  }
  return best
}

let levels = [1, 3, 6, 9]
var sealedByLevel: [[[UInt8]]] = []
var rawByLevel: [[[UInt8]]] = []
var contenders: [() throws -> Void] = []
for level in levels {
  let codec = EnvelopeCodec(configuration: .init(level: level))
  let sealed = try big.map { try codec.seal($0, form: .binary)! }
  let raw = big.map { rawCompress($0, level: level) }
  for (index, frame) in big.enumerated() {
    // Same zlib, same settings: the envelope is the raw stream behind a 9-byte header.
    guard Array(sealed[index].dropFirst(9)) == raw[index], try codec.open(binary: sealed[index]) == frame,
      rawUncompress(raw[index], count: frame.count) == frame
    else { fatalError("envelope and raw zlib disagree at level \(level)") }
  }
  sealedByLevel.append(sealed)
  rawByLevel.append(raw)
  contenders += [
    { for f in big { _ = try codec.seal(f, form: .binary) } },
    { for f in big { _ = rawCompress(f, level: level) } },
    { for e in sealed { _ = try codec.open(binary: e) } },
    { for (i, r) in raw.enumerated() { _ = rawUncompress(r, count: big[i].count) } },
  ]
}
// Text form at the default level: the same stream, base64 in a JSON object.
let textCodec = EnvelopeCodec()
let texts = try big.map { try textCodec.seal($0, form: .text)! }
for (index, frame) in big.enumerated() where try textCodec.open(textFrame: texts[index]) != frame {
  fatalError("text envelope round trip failed")
}
contenders += [
  { for f in big { _ = try textCodec.seal(f, form: .text) } },
  { for t in texts { _ = try textCodec.open(textFrame: t) } },
]
let times = try fastestInterleaved(contenders)

print(
  "\n## envelope, \(big.count) frames of 1 KB and more, \(bigBytes) bytes; CPU time, fastest "
    + "of \(repetitions) interleaved rounds; time ratio = vcproto's time / zlib's")
print(
  "level  ratio  envelope bytes  bytes vs raw zlib     seal MB/s  compress2 MB/s  time ratio   open MB/s"
    + "  uncompress MB/s  time ratio")
for (index, level) in levels.enumerated() {
  let sealedBytes = sealedByLevel[index].reduce(0) { $0 + $1.count }
  let rawBytes = rawByLevel[index].reduce(0) { $0 + $1.count }
  let (seal, compress, open, inflate) = (
    times[4 * index], times[4 * index + 1], times[4 * index + 2], times[4 * index + 3]
  )
  print(
    String(
      format: "%5d  %5.2f  %14d  %+6.2f %% (%+d B)  %9.1f  %14.1f  %9.2fx  %10.1f  %15.1f  %9.2fx", level,
      Double(bigBytes) / Double(sealedBytes), sealedBytes, (Double(sealedBytes) / Double(rawBytes) - 1) * 100,
      sealedBytes - rawBytes, megabytesPerSecond(seal), megabytesPerSecond(compress), seal / compress,
      megabytesPerSecond(open), megabytesPerSecond(inflate), open / inflate))
}
let defaultIndex = levels.firstIndex(of: defaultLevel)!
let binaryBytes = sealedByLevel[defaultIndex].reduce(0) { $0 + $1.count }
let textBytes = texts.reduce(0) { $0 + $1.count }
let (textSeal, textOpen) = (times[4 * levels.count], times[4 * levels.count + 1])
print(
  String(
    format: "text form, level %d: ratio %.2f, %d bytes, %+.1f %% vs the binary form; seal %.1f MB/s (%.2fx the "
      + "binary form's time), open %.1f MB/s (%.2fx)", defaultLevel, Double(bigBytes) / Double(textBytes), textBytes,
    (Double(textBytes) / Double(binaryBytes) - 1) * 100, megabytesPerSecond(textSeal),
    textSeal / times[4 * defaultIndex], megabytesPerSecond(textOpen), textOpen / times[4 * defaultIndex + 2]))
if smoke { print("\nsmoke: 1 passed, 0 failed") }
