import VCProto

/// `Vectors/envelope/`: `{id, form, json?, envelope_base64, valid, error?}`, run with ``EnvelopeCodec``.
enum EnvelopeVectors {
  /// `nil` when the vector passes, else what differed.
  static func check(_ vector: JSONValue) -> String? {
    guard let valid = vector["valid"]?.boolValue else { return "vector has no boolean \"valid\"" }
    guard let form = vector["form"]?.stringValue, form == "binary" || form == "text" else {
      return "vector has no \"form\" of \"binary\" or \"text\""
    }
    guard let base64 = vector["envelope_base64"]?.stringValue, let envelope = Base64.decode(base64) else {
      return "\"envelope_base64\" is missing or not base64"
    }
    let codec = EnvelopeCodec()
    let opened = open(envelope, form: form, codec: codec)
    if valid {
      guard let json = vector["json"]?.stringValue else { return "valid vector has no \"json\"" }
      let expected = Array(json.utf8)
      switch opened {
      case .failure(let error): return "expected the inner frame, got \(error.code)"
      case .success(let inner) where inner != expected:
        return "opened to \(inner.count) bytes that differ from \"json\" (\(expected.count) bytes)"
      case .success: break
      }
      // The encode side: a fresh seal of the same frame opens back to it.
      do throws(EnvelopeError) {
        let sender = EnvelopeCodec(configuration: EnvelopeConfiguration(threshold: 0))
        guard let sealed = try sender.seal(expected, form: form == "binary" ? .binary : .text) else {
          return "sealing \"json\" again produced no envelope"
        }
        guard case .success(let again) = open(sealed, form: form, codec: codec), again == expected else {
          return "a fresh seal of \"json\" does not open back to it"
        }
      } catch {
        return "sealing \"json\" again failed: \(error.code)"
      }
      return nil
    }
    guard let code = vector["error"]?.stringValue else { return "invalid vector has no \"error\" code" }
    switch opened {
    case .success(let inner): return "expected \(code), opened to \(inner.count) bytes"
    case .failure(let error) where error.code != code: return "expected \(code), got \(error.code)"
    case .failure: return nil
    }
  }

  /// Opens a binary envelope, or a text envelope frame (its fields extracted with ``JSONReader``; a
  /// missing field or one of the wrong JSON type is `envelope_malformed`).
  static func open(_ bytes: [UInt8], form: String, codec: EnvelopeCodec) -> Result<[UInt8], EnvelopeError> {
    do throws(EnvelopeError) {
      if form == "binary" { return .success(try codec.open(binary: bytes)) }
      guard case .object(let object)? = try? JSONReader().parse(bytes), object["type"]?.stringValue == "compressed",
        let encoding = object["encoding"]?.stringValue, let length = object["length"]?.intValue,
        let data = object["data"]?.stringValue
      else { throw .malformed }
      return .success(try codec.open(text: encoding, length: length, data: data))
    } catch {
      return .failure(error)
    }
  }
}
