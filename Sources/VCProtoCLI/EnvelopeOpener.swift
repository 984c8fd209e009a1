import VCProto

/// The seam through which `validate` and `decode` open compression envelopes.
///
/// ``standard`` uses the package's ``EnvelopeCodec``; ``unavailable`` reports every envelope as
/// `envelope_unsupported` (what a build without envelope support would do).
public struct EnvelopeOpener: Sendable {
  /// What to open.
  public enum Input: Sendable {
    /// A binary WebSocket message starting with the `VC` magic.
    case binary([UInt8])
    /// The fields of a text envelope `{"type":"compressed","encoding":..,"length":..,"data":..}`.
    case text(encoding: String, length: Int, data: String)
  }

  /// Returns the inner frame bytes, or a finding code (e.g. `envelope_corrupt`) and a sentence.
  public var open: @Sendable (Input) -> Result<[UInt8], EnvelopeOpenFailure>

  /// Creates an opener from a closure.
  public init(open: @escaping @Sendable (Input) -> Result<[UInt8], EnvelopeOpenFailure>) {
    self.open = open
  }

  /// Opens envelopes with ``EnvelopeCodec`` and its default limits.
  public static let standard = EnvelopeOpener { input in
    let codec = EnvelopeCodec()
    do throws(EnvelopeError) {
      switch input {
      case .binary(let bytes): return .success(try codec.open(binary: bytes))
      case .text(let encoding, let length, let data):
        return .success(try codec.open(text: encoding, length: length, data: data))
      }
    } catch {
      return .failure(EnvelopeOpenFailure(code: error.code, message: "envelope cannot be opened: \(error.code)"))
    }
  }

  /// Opens nothing: every envelope is reported as `envelope_unsupported`.
  public static let unavailable = EnvelopeOpener { _ in
    .failure(
      EnvelopeOpenFailure(
        code: FindingCode.envelopeUnsupported.rawValue, message: "compression envelopes are not supported by this build"
      ))
  }
}

/// Why an envelope did not open: a stable code and a sentence.
public struct EnvelopeOpenFailure: Error, Sendable, Hashable {
  /// The finding code, e.g. `envelope_corrupt`.
  public var code: String
  /// A sentence for people.
  public var message: String

  /// Creates a failure.
  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }
}
