import Testing
import VCProto

@testable import VCProtoCLI
@testable import VCProtoCapture

@Suite struct JSONLinesReaderTests {
  func frames(_ text: String, maxLineLength: Int = 1 << 20, chunk: Int = 7) throws -> [CapturedFrame] {
    try readAll(
      JSONLinesReader(source: ByteSource(bytes: Array(text.utf8)), chunkSize: chunk, maxLineLength: maxLineLength))
  }

  @Test func bareMessagesAndRecords() throws {
    let input = """
      {"type":"ping"}

      {"direction":"send","time":"2026-01-11T09:15:02Z","data":"{\\"type\\":\\"ping\\"}"}
      {"direction":"receive","time":1768122902.5,"data":"{\\"type\\":\\"pong\\"}"}\r
      {"direction":"server_to_client","time":1768122902500,"data":"{\\"type\\":\\"pong\\"}"}
      not json at all
      """
    let f = try frames(input + "\n")
    #expect(f.map(\.position) == [.line(1), .line(3), .line(4), .line(5), .line(6)])
    #expect(f.map(\.direction) == [nil, .clientToServer, .serverToClient, .serverToClient, nil])
    #expect(f.map(\.time) == [nil, 1_768_122_902, 1_768_122_902.5, 1_768_122_902.5, nil])
    #expect(
      f.map(text) == [
        "{\"type\":\"ping\"}", "{\"type\":\"ping\"}", "{\"type\":\"pong\"}", "{\"type\":\"pong\"}", "not json at all",
      ])
    #expect(f.allSatisfy { $0.findings.isEmpty })
  }

  @Test func harStyleRecordsInJSONLines() throws {
    let f = try frames(#"{"type":"receive","time":1,"opcode":1,"data":"{\"type\":\"pong\"}"}"# + "\n")
    #expect(f.count == 1)
    #expect(f[0].direction == .serverToClient)
    #expect(text(f[0]) == "{\"type\":\"pong\"}")
  }

  /// Lines that start `{"type":"..."` skip the record scans; the answer must be the one reading the
  /// line as a record gives: an escaped `send`, a `type` of `send`/`receive`, or a repeated `type` are
  /// still told apart correctly.
  @Test func messageLinesSkipTheRecordScanWithTheSameAnswer() throws {
    let record = #""data":"{\"type\":\"pong\"}""#
    let lines: [(String, Bool)] = [
      (#"{"type":"ping","# + record + "}", false),
      (#"{"type":"send","# + record + "}", true),
      (#"{"type":"receive","# + record + "}", true),
      (#"{"type":"s\u0065nd","# + record + "}", true),
      (#"{"type":"ping","type":"send","# + record + "}", false),
      (#"{"type":"send","type":"ping","# + record + "}", false),
      (#"{"type" :"send","# + record + "}", true),
      (#"{"type":"#, false),
    ]
    for (line, isRecord) in lines {
      let f = try frames(line + "\n")
      #expect(f.count == 1, "\(line)")
      #expect((f.first?.direction != nil) == isRecord, "\(line)")
    }
    #expect(JSONLinesReader.startsAsMessage(Array(#"{"type":"ping"}"#.utf8)))
    #expect(!JSONLinesReader.startsAsMessage(Array(#"{"type":"send"}"#.utf8)))
    #expect(!JSONLinesReader.startsAsMessage(Array(#"{"type":"s\u0065nd"}"#.utf8)))
    #expect(!JSONLinesReader.startsAsMessage(Array(#"{"type":"pi"#.utf8)))
  }

  @Test func truncatedLastLineWithoutNewlineIsRead() throws {
    let f = try frames("{\"type\":\"ping\"}\n{\"type\":\"po")
    #expect(f.count == 2)
    #expect(text(f[1]) == "{\"type\":\"po")
    #expect(f[1].position == .line(2))
  }

  @Test func overlongLineIsReportedAndSkipped() throws {
    let long = "{\"type\":\"prompt\",\"text\":\"" + String(repeating: "x", count: 300) + "\"}"
    let f = try frames("{\"type\":\"ping\"}\n" + long + "\n{\"type\":\"pong\"}\n", maxLineLength: 100, chunk: 16)
    #expect(f.count == 3)
    #expect(f[1].position == .line(2))
    #expect(f[1].payload == nil)
    #expect(f[1].findings.map(\.code) == [.lineTooLong])
    #expect(f[2].position == .line(3))
    #expect(text(f[2]) == "{\"type\":\"pong\"}")
  }

  @Test func badRecordsAreFindings() throws {
    let f = try frames(
      """
      {"direction":"sideways","data":"{\\"type\\":\\"ping\\"}"}
      {"direction":"send","data":7}
      {"direction":"receive","opcode":2,"data":"%%%not base64"}
      {"direction":"receive","opcode":2,"data":"VkMBaGk="}

      """)
    #expect(f[0].findings.map(\.code) == [.invalidRecord])
    #expect(f[1].findings.map(\.code) == [.invalidRecord])
    #expect(f[2].findings.map(\.code) == [.invalidBase64])
    #expect(f[3].payload == .binary([0x56, 0x43, 0x01, 0x68, 0x69]))
  }
}

@Suite struct HARReaderTests {
  func har(_ messages: String, tail: String = "]}]}}") -> String {
    """
    {"log":{"version":"1.2","entries":[{"request":{"url":"ws://h/","comment":"\\"_webSocketMessages\\": [{\\"x\\":1}]"},
    "_webSocketMessages":[\(messages)\(tail)
    """
  }

  let hello =
    #"{"type":"receive","time":1768122902.25,"opcode":1,"data":"{\"type\":\"hello\",\"message\":\"m\",\"version\":\"0.2.0\",\"auth_version\":1,\"instructions\":\"i\"}"}"#
  let ping = #"{"type":"send","time":1768122903,"opcode":1,"data":"{\"type\":\"ping\"}"}"#

  func frames(_ text: String, chunk: Int = 5) throws -> [CapturedFrame] {
    try readAll(HARReader(source: ByteSource(bytes: Array(text.utf8)), chunkSize: chunk))
  }

  @Test func yieldsEachMessageWithDirectionTimeAndIndex() throws {
    let f = try frames(har("\(hello),\(ping)"))
    #expect(f.count == 2)
    #expect(f.map(\.position) == [.entry(0), .entry(1)])
    #expect(f.map(\.direction) == [.serverToClient, .clientToServer])
    #expect(f.map(\.time) == [1_768_122_902.25, 1_768_122_903])
    #expect(text(f[1]) == "{\"type\":\"ping\"}")
    #expect(f.allSatisfy { $0.findings.isEmpty && $0.isFrame })
  }

  @Test func eachEntryIsAConnection() throws {
    let two = """
      {"log":{"entries":[{"_webSocketMessages":[\(ping)]},{"_webSocketMessages":[\(ping),\(ping)]}]}}
      """
    let f = try frames(two)
    #expect(f.map(\.connection) == [0, 1, 1])
    #expect(f.map(\.position) == [.entry(0), .entry(1), .entry(2)])
  }

  @Test func truncatedHARReportsWhatWasRead() throws {
    let full = har("\(hello),\(ping)")
    let cut = String(full.prefix(full.count - 40))
    let f = try frames(cut)
    #expect(f.count == 2)
    #expect(text(f[0])?.contains("hello") == true)
    #expect(f[1].isFrame == false)
    #expect(f[1].findings.map(\.code) == [.truncatedInput])
  }

  @Test func binaryFramesAreBase64() throws {
    let good = #"{"type":"receive","time":1,"opcode":2,"data":"VkMBaGk="}"#
    let bad = #"{"type":"receive","time":1,"opcode":2,"data":"VkMB*Gk="}"#
    let control = #"{"type":"receive","time":1,"opcode":9,"data":""}"#
    let f = try frames(har("\(good),\(control),\(bad)"))
    #expect(f.count == 2)
    #expect(f[0].payload == .binary([0x56, 0x43, 0x01, 0x68, 0x69]))
    #expect(f[1].position == .entry(1))
    #expect(f[1].payload == nil)
    #expect(f[1].findings.map(\.code) == [.invalidBase64])
  }

  @Test func noMessagesAndBrokenStructure() throws {
    let none = try frames(#"{"log":{"entries":[{"request":{}}]}}"#)
    #expect(none.map { $0.findings.map(\.code) } == [[.noFrames]])
    let broken = try frames(#"{"log":{"entries":[{"_webSocketMessages":[\#(ping)}]}}"#)
    #expect(broken.count == 2)
    #expect(broken[1].findings.map(\.code) == [.invalidCapture])
  }
}

@Suite struct FormatAndCodecTests {
  @Test func detection() {
    #expect(CaptureFormat.detect(path: "x.har", prefix: Array("{\"type\":\"ping\"}".utf8)) == .har)
    #expect(CaptureFormat.detect(path: "x.ndjson", prefix: []) == .jsonl)
    #expect(CaptureFormat.detect(path: nil, prefix: Array(" \n{ \"log\" : {".utf8)) == .har)
    #expect(
      CaptureFormat.detect(path: "x.json", prefix: Array("{\"type\":\"ping\"}\n{\"type\":\"ping\"}".utf8)) == .jsonl)
    #expect(CaptureFormat.detect(path: "x.json", prefix: Array("{\n  \"type\": \"ping\"\n}\n".utf8)) == .frame)
    #expect(CaptureFormat.detect(path: nil, prefix: [0x56, 0x43, 1, 0, 1]) == .frame)
  }

  @Test func base64IsStrict() {
    #expect(Base64.decode("YWI=") == [0x61, 0x62])
    #expect(Base64.decode("YQ==") == [0x61])
    #expect(Base64.decode("") == [])
    #expect(Base64.decode("YQ=") == nil)
    #expect(Base64.decode("YR==") == nil)
    #expect(Base64.decode("Y Q==") == nil)
    #expect(Base64.decode("YQ==YQ==") == nil)
    #expect(Base64.decode("Y-_=") == nil)
  }

  @Test func timestamps() {
    #expect(Timestamp.seconds("2026-01-11T09:15:02Z") == 1_768_122_902)
    #expect(Timestamp.seconds("2026-01-11T09:15:02.5Z") == 1_768_122_902.5)
    #expect(Timestamp.seconds("2026-01-11T10:15:02+01:00") == 1_768_122_902)
    #expect(Timestamp.seconds("1969-12-31T23:00:00Z") == -3600)
    #expect(Timestamp.seconds("2026-13-11T09:15:02Z") == nil)
    #expect(Timestamp.seconds("yesterday") == nil)
  }
}
