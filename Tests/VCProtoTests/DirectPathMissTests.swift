import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The direct decode path gives up with its own signal, `DirectPathError`: a miss (a frame it does not
/// recognise outright, which may still be valid) is never a JSON error, and a real JSON error met on
/// the direct path is reported by the tree path exactly as STANDARDS.md#findings says.
@Suite struct DirectPathMissTests {
  /// Runs the generated decoder over the bytes reader on a client frame as ``MessageDecoder`` does.
  static func pull(_ text: String) -> Result<ClientMessage?, DirectPathError>? {
    Array(text.utf8).withUnsafeBufferPointer { buffer in
      var p = BytesReader(buffer: buffer, limits: JSONLimits())
      guard let type = p.parser.pullLeadingType() else { return nil }
      do throws(DirectPathError) {
        return .success(try ClientMessage.read(type: type, version: .v0_2_0, &p, typeConsumed: true))
      } catch {
        return .failure(error)
      }
    }
  }

  static func decode(_ text: String) -> Result<AnyMessage, DecodingFailure> {
    Result { () throws(DecodingFailure) in try MessageDecoder(options: ValidationOptions(version: .v0_2_0)).decode(text)
    }
  }

  /// A broken rule (`size_kb` >= 1) is a miss at the member, not a JSON error; the caller gets the
  /// validator's `invalid_value` at `/size_kb` and nothing about JSON.
  @Test func aBrokenRuleIsAMissAndTheCallerSeesTheRule() {
    let frame = #"{"type":"set_max_message_size","size_kb":0}"#
    let keyStart = frame.utf8.count - #"size_kb":0}"#.utf8.count  // the member name's first byte
    guard case .failure(.miss(let at))? = Self.pull(frame) else {
      Issue.record("expected a miss, got \(String(describing: Self.pull(frame)))")
      return
    }
    #expect(at >= keyStart)
    guard case .failure(let failure) = Self.decode(frame) else {
      Issue.record("size_kb 0 decoded")
      return
    }
    #expect(failure.findings.map(\.code) == [.invalidValue])
    #expect(failure.findings.map(\.pointer) == ["/size_kb"])
  }

  /// A valid frame the direct path does not recognise (an escaped member name) is a miss there and
  /// decodes on the tree path.
  @Test func aValidFrameThatMissesStillDecodes() throws {
    let frame = #"{"type":"set_max_message_size","size_\u006bb":200}"#
    guard case .failure(.miss)? = Self.pull(frame) else {
      Issue.record("expected a miss, got \(String(describing: Self.pull(frame)))")
      return
    }
    guard case .success(.client(.setMaxMessageSize(let m))) = Self.decode(frame) else {
      Issue.record("the frame did not decode: \(Self.decode(frame))")
      return
    }
    #expect(m.sizeKb == 200)
  }

  /// A bad escape inside a string is a JSON error of the shared reader, passed on as `.read`, and the
  /// caller gets the tree reader's `invalid_json` with its offset.
  @Test func aRealJSONErrorIsReadAndReportedWithItsOffset() throws {
    let frame = #"{"type":"prompt","text":"a\x"}"#
    guard case .failure(.read(let error))? = Self.pull(frame) else {
      Issue.record("expected a read error, got \(String(describing: Self.pull(frame)))")
      return
    }
    #expect(error.kind == .invalidJSON)
    guard case .failure(let failure) = Self.decode(frame) else {
      Issue.record("a bad escape decoded")
      return
    }
    #expect(failure.findings.map(\.code) == [.invalidJSON])
    #expect(failure.findings.first?.offset == error.offset)
  }

  /// STANDARDS.md#findings: `{"type":"ping",}` is `invalid_json` at offset 15 (the `}`), although the
  /// direct path only misses there (it expects a member name).
  @Test func theSpecsOffsetExampleThroughTheDecoder() {
    guard case .failure(let failure) = Self.decode(#"{"type":"ping",}"#) else {
      Issue.record("a trailing comma decoded")
      return
    }
    #expect(failure.findings.map(\.code) == [.invalidJSON])
    #expect(failure.findings.first?.offset == 15)
  }

  /// No miss is ever surfaced as a JSON error: every invalid vector that is well-formed JSON fails to
  /// decode with findings none of which is about JSON (the direct path misses on all of them).
  @Test func noMissIsEverAJSONError() throws {
    let jsonCodes: Set<FindingCode> = Set(JSONReadError.Kind.allCases.map { FindingCode(rawValue: $0.rawValue) })
    var checked = 0
    for v in try MessageVectorTests.vectors() where !v.valid {
      guard (try? JSONReader().parse(v.frame)) != nil else { continue }
      if case .failure(let failure) = Self.decode(v.frame) {
        #expect(!failure.findings.contains { jsonCodes.contains($0.code) }, "\(v.id)")
        checked += 1
      }
    }
    #expect(checked > 100)
  }
}
