import Foundation
import Testing

@testable import VCProto

/// `SessionKey` keys the client engine's subscriptions as the session id itself did.
@Suite struct SessionKeyTests {
  static let uuid = "4d6f0e1e-8a6b-4f43-9d0e-2b8c7a1f0c11"

  /// A string equal to `text` held in a buffer of its own (not the literal's).
  static func copy(_ text: String) -> String {
    var copy = String()
    copy.reserveCapacity(64)
    copy.append(text)
    return copy
  }

  /// Equal exactly when the ids are `==` (canonical equivalence included, as with a `String` key),
  /// with equal hashes then; UUIDs included, packed or not.
  @Test func equalityIsTheIds() {
    let pairs: [(String, String)] = [
      ("s", "s"), ("\u{e9}", "e\u{301}"), ("s", "t"), ("", ""),
      (String(repeating: "ab", count: 40), Self.copy(String(repeating: "ab", count: 40))),
      (Self.uuid, Self.copy(Self.uuid)), (Self.uuid, Self.uuid.uppercased()),
      (Self.uuid, Self.uuid + "\u{301}"), (Self.uuid, String(Self.uuid.dropLast()) + "2"),
      (Self.uuid, Self.uuid.replacingOccurrences(of: "-", with: "_")), ("s", Self.uuid),
      (Self.uuid.uppercased(), Self.copy(Self.uuid.uppercased())),
    ]
    for (a, b) in pairs {
      #expect((SessionKey(a) == SessionKey(b)) == (a == b), "\(a) \(b)")
      if a == b { #expect(SessionKey(a).hashValue == SessionKey(b).hashValue, "\(a) \(b)") }
    }
  }

  /// The reason a packed UUID equals no other spelling: a string canonically equivalent to it
  /// decomposes to the UUID itself, so each of its other scalars would decompose to ASCII scalars
  /// only, among them a hexadecimal digit or `-`; no scalar does.
  @Test func noOtherScalarStandsForAUUIDCharacter() {
    let uuidCharacters = Set("0123456789abcdef-".unicodeScalars)
    for value in UInt32(0x80)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars
      let allASCII = decomposed.allSatisfy(\.isASCII)
      #expect(!(allASCII && decomposed.contains { uuidCharacters.contains($0) }), "U+\(String(value, radix: 16))")
    }
    #expect(SessionKey.uuidBits(Array(Self.uuid.utf8).withUnsafeBufferPointer { $0 }) != nil)
  }

  /// A table keyed by `SessionKey` agrees with one keyed by the `String` through inserts and removals
  /// that shift and grow it, with UUID and other ids mixed.
  @Test func tableAgreesWithAStringTable() {
    var generator = SystemRandomNumberGenerator()
    var keyed: [SessionKey: Int] = [:]
    var plain: [String: Int] = [:]
    for step in 0..<5_000 {
      let n = Int.random(in: 0..<300, using: &generator)
      let id = n % 2 == 0 ? String(format: "00000000-0000-4000-8000-%012d", n) : "session-\(n)"
      if Bool.random(using: &generator) {
        keyed[SessionKey(Self.copy(id))] = step
        plain[id] = step
      } else {
        #expect((keyed.removeValue(forKey: SessionKey(id)) == nil) == (plain.removeValue(forKey: id) == nil))
      }
      #expect(keyed.count == plain.count)
    }
    for (id, value) in plain { #expect(keyed[SessionKey(id)] == value) }
  }
}
