import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// `Vectors/envelope/` as ``SwiftPeer`` answers them: ``EnvelopeCodec`` opens `envelope_base64` as
/// `form`; the result is the frame it holds (`opened_base64`) or the ``EnvelopeError`` code (`error`).
/// What opens must also seal again: a fresh seal of it opens back to it.
enum EnvelopeVectors {
  /// The result for `{form, envelope_base64}`, or why there is none.
  static func answer(_ input: JSONValue) -> Result<JSONValue, SwiftPeer.Refusal> {
    guard let form = input["form"]?.stringValue, form == "binary" || form == "text" else {
      return .failure(.init("the input has no \"form\" of \"binary\" or \"text\""))
    }
    guard let base64 = input["envelope_base64"]?.stringValue, let envelope = Base64.decode(base64) else {
      return .failure(.init("\"envelope_base64\" is missing or not base64"))
    }
    let codec = EnvelopeCodec()
    let inner: [UInt8]
    switch open(envelope, form: form, codec: codec) {
    case .failure(let error): return .success(["error": .string(error.code)])
    case .success(let opened): inner = opened
    }
    // The encode side: a fresh seal of the same frame opens back to it.
    do throws(EnvelopeError) {
      let sender = EnvelopeCodec(configuration: EnvelopeConfiguration(threshold: 0))
      guard let sealed = try sender.seal(inner, form: form == "binary" ? .binary : .text) else {
        return .failure(.init("sealing the opened frame again produced no envelope"))
      }
      guard case .success(let again) = open(sealed, form: form, codec: codec), again == inner else {
        return .failure(.init("a fresh seal of the opened frame does not open back to it"))
      }
    } catch {
      return .failure(.init("sealing the opened frame again failed: \(error.code)"))
    }
    return .success(["opened_base64": .string(Base64.encode(inner))])
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
