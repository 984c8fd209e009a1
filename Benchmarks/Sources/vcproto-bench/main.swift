import CZlib
import Foundation
import VCProto

// vcproto-bench: every contender on the same in-memory corpus, in one run, reported as ratios.
//
//   vcproto-bench [--frames N] [--repetitions R]   full report
//   vcproto-bench --smoke                            tiny corpus, one repetition, correctness checks
//   vcproto-bench corpus --megabytes M --output F    write the corpus as JSON Lines (for vcproto validate)

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
  guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
  return arguments[i + 1]
}

if arguments.first == "corpus" {
  let megabytes = Int(option("--megabytes") ?? "10") ?? 10
  let path = option("--output") ?? "corpus.jsonl"
  FileManager.default.createFile(atPath: path, contents: nil)
  guard let handle = FileHandle(forWritingAtPath: path) else { fatalError("cannot write \(path)") }
  var generator = Generator(rng: SplitMix64(seed: 20_260_111))
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

// `vcproto-bench profile --frames N --min-bytes A --max-bytes B --rounds R [--contender jsondecoder]`:
// decode only, for `valgrind --tool=callgrind` (instruction counts do not depend on the machine's load).
if arguments.first == "profile" {
  let count = Int(option("--frames") ?? "4000") ?? 4000
  let maxBytes = Int(option("--max-bytes") ?? "1023") ?? 1023
  let rounds = Int(option("--rounds") ?? "5") ?? 5
  let minBytes = Int(option("--min-bytes") ?? "0") ?? 0
  let frames = Corpus.generate(count: count).frames.filter { $0.count <= maxBytes && $0.count >= minBytes }
  let decoder = MessageDecoder()
  var decoded = 0
  if option("--contender") == "jsondecoder" {
    let datas = frames.map { Data($0) }
    let jsonDecoder = JSONDecoder()
    for _ in 0..<rounds { for d in datas { if (try? jsonDecoder.decode(CBFrame.self, from: d)) != nil { decoded += 1 } } }
  } else {
    for _ in 0..<rounds { for f in frames { if (try? decoder.decode(f)) != nil { decoded += 1 } } }
  }
  print("decoded \(decoded) of \(frames.count * rounds)")
  exit(0)
}

let smoke = arguments.contains("--smoke")
let count = Int(option("--frames") ?? (smoke ? "400" : "20000")) ?? 20000
let repetitions = Int(option("--repetitions") ?? (smoke ? "1" : "7")) ?? 7

let corpus = Corpus.generate(count: count)
let sizes = corpus.frames.map(\.count).sorted()
print("corpus: \(corpus.frames.count) frames, \(corpus.bytes) bytes; median \(sizes[sizes.count / 2]) B, "
  + "\(sizes.filter { $0 > 11_000 }.count * 100 / sizes.count) % over 11 KB, "
  + "\(corpus.frames.filter { $0.contains { $0 >= 0x80 } }.count * 100 / corpus.frames.count) % non-ASCII")

// Every generated frame must be valid, or the comparison would measure error paths.
let validator = Validator()
for frame in corpus.frames where !validator.validate(frame).isValid {
  fatalError("generated an invalid frame: \(String(decoding: frame, as: UTF8.self).prefix(300))")
}

let decoder = MessageDecoder()
let encoder = MessageEncoder()
let jsonDecoder = JSONDecoder()
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
  guard a.isEqual(b) else { fatalError("vcproto and JSONDecoder disagree on \(String(decoding: frame, as: UTF8.self).prefix(200))") }
  compared += 1
}
print("correctness: vcproto and JSONDecoder agree on all \(compared) frames")

/// Seconds per contender: the contenders run interleaved, one after another in each of `repetitions`
/// rounds, and each keeps its fastest round. Interleaving and the minimum make the ratios robust to
/// load that comes and goes on a shared machine (it slows whichever contender happens to be running).
func measure(_ contenders: [() throws -> Void]) throws -> [Double] {
  var best = [Double](repeating: .infinity, count: contenders.count)
  for _ in 0..<repetitions {
    for (i, body) in contenders.enumerated() {
      let start = ContinuousClock.now
      try body()
      let d = ContinuousClock.now - start
      best[i] = min(best[i], Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
    }
  }
  return best
}

struct Row {
  var name: String
  var seconds: Double
  var bytes: Int
  var messages: Int
  var mbps: Double { Double(bytes) / seconds / 1e6 }
  var perSecond: Double { Double(messages) / seconds }
}

func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }

func report(_ title: String, _ rows: [Row], baselines: [String]) {
  print("\n## \(title)")
  print(pad("contender", 34) + "MB/s      msg/s     " + baselines.map { "vs \($0)" }.joined(separator: "  "))
  for row in rows {
    var line = pad(row.name, 34)
    line += String(format: "%7.1f  %9.0f   ", row.mbps, row.perSecond)
    for b in baselines {
      if let base = rows.first(where: { $0.name == b }) { line += String(format: "%6.2fx   ", base.seconds / row.seconds) }
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
  let decodeTimes = try measure([
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
  let encodeTimes = try measure([
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

// Envelope: seal + open through vcproto vs compress2 + uncompress called directly, same level.
let big = corpus.frames.filter { $0.count >= 1024 }
let codec = EnvelopeCodec()
let level = codec.configuration.level
func rawZlib(_ frame: [UInt8]) -> Int {
  var bound = compressBound(uLong(frame.count))
  var compressed = [UInt8](repeating: 0, count: Int(bound))
  _ = compress2(&compressed, &bound, frame, uLong(frame.count), Int32(level))
  var outLength = uLong(frame.count)
  var out = [UInt8](repeating: 0, count: frame.count)
  _ = uncompress(&out, &outLength, compressed, bound)
  return Int(outLength)
}
for frame in big.prefix(50) {
  guard let sealed = try codec.seal(frame, form: .binary), try codec.open(binary: sealed) == frame,
    rawZlib(frame) == frame.count
  else { fatalError("envelope round trip failed") }
}
let envelopeTimes = try measure([
  { for f in big { if let s = try codec.seal(f, form: .binary) { _ = try codec.open(binary: s) } } },
  { for f in big { _ = rawZlib(f) } },
])
let (env, raw) = (envelopeTimes[0], envelopeTimes[1])
let bigBytes = big.reduce(0) { $0 + $1.count }
report(
  "envelope (level \(level)), frames of 1 KB and more",
  [
    Row(name: "vcproto seal + open (binary form)", seconds: env, bytes: bigBytes, messages: big.count),
    Row(name: "zlib compress2 + uncompress", seconds: raw, bytes: bigBytes, messages: big.count),
  ], baselines: ["zlib compress2 + uncompress"])
print(String(format: "\nenvelope overhead over raw zlib: %+.1f %%", (env / raw - 1) * 100))
if smoke { print("\nsmoke: 1 passed, 0 failed") }
