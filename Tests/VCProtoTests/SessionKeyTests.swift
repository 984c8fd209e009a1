import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// `SessionKey` keys the client engine's subscriptions by the ids' exact scalars.
@Suite struct SessionKeyTests {
  /// Equal exactly when the ids are the same scalars (never by canonical equivalence, as a `String`
  /// key was), with equal hashes then.
  @Test func equalityIsTheIdsBytes() {
    let pairs: [(String, String, Bool)] = [
      ("s", "s", true), ("s", "t", false), ("", "", true),
      (String(repeating: "ab", count: 40), String(repeating: "ab", count: 40), true),
      // ASCII ids of every length up to two words and a tail, differing in their last byte.
      ("abcdefg", "abcdefh", false), ("abcdefgh", "abcdefgi", false), ("abcdefghijkl", "abcdefghijkm", false),
      // Canonically equivalent spellings (`==` takes them for one string): two sessions.
      ("\u{e9}", "e\u{301}", false), ("\u{212A}", "K", false), ("a\u{37E}b", "a;b", false),
      ("\u{1FEF}x", "`x", false), ("7f3c\u{212A}-\u{37E}\u{1FEF}", "7f3cK-;`", false), ("\u{212A}", "k", false),
      ("s-\u{e9}-1", "s-e\u{301}-1", false), ("\u{1E69}", "s\u{323}\u{307}", false),
      // A long id and the same text with spare capacity (two buffers, one text).
      ("f47ac10b-58cc-4372-a567-0e02b2c3d479", spare("f47ac10b-58cc-4372-a567-0e02b2c3d479"), true),
      ("f47ac10b-58cc-4372-a567-0e02b2c3d479", "f47ac10b-58cc-4372-a567-0e02b2c3d47a", false),
      // Around the bytes a key keeps itself (48): differing in the last kept byte, in the first byte
      // past them (only the ids' own bytes can tell), and equal ids longer than that.
      (String(repeating: "x", count: 47) + "a", String(repeating: "x", count: 47) + "b", false),
      (String(repeating: "x", count: 48) + "a", String(repeating: "x", count: 48) + "b", false),
      (String(repeating: "x", count: 48) + "a", spare(String(repeating: "x", count: 48) + "a"), true),
      (String(repeating: "x", count: 48), String(repeating: "x", count: 48) + "\u{0}", false),
    ]
    for (a, b, equal) in pairs {
      #expect((SessionKey(a) == SessionKey(b)) == equal, "\(a) \(b)")
      if equal { #expect(SessionKey(a).hash == SessionKey(b).hash) }
      // With the same hash forced, the ids alone decide (their bytes).
      #expect((SessionKey(a, hash: 7) == SessionKey(b, hash: 7)) == equal, "colliding hashes: \(a) \(b)")
    }
  }

  /// A history's messages are matched to its session by ``SessionBytes/same(_:_:)``: exact bytes, a
  /// uuid's 36 in straight code. Equal ids, ids differing in each byte in turn (the last four read as
  /// one word), and ids of other lengths.
  @Test func sessionBytesCompareExactly() {
    let uuid = "f47ac10b-58cc-4372-a567-0e02b2c3d479"
    var cases: [(String, String, Bool)] = [
      (uuid, spare(uuid), true), (uuid, String(uuid.dropLast()), false), ("", "", true), ("s-1", "s-1", true),
      ("s-1", "s-2", false), (String(repeating: "\u{e9}", count: 18), String(repeating: "\u{e9}", count: 18), true),
    ]
    for position in 0..<36 {
      var bytes = Array(uuid.utf8)
      bytes[position] ^= 0x01
      cases.append((uuid, String(decoding: bytes, as: UTF8.self), false))
    }
    for (a, b, equal) in cases {
      #expect(SessionBytes.with(b) { SessionBytes.same(a, $0) } == equal, "\(a) \(b)")
    }
  }

  /// Every scalar canonically equivalent to an ASCII one (Unicode's singletons) keys another session
  /// than its ASCII spelling.
  @Test(.tags(.slow), .enabled(if: slowSuitesRun)) func noScalarIsTakenForItsASCIISpelling() {
    var singletons = 0
    for value in UInt32(0x80)...0x10_FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping
      guard decomposed.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
      singletons += 1
      let id = "s-" + String(Character(scalar)) + "-1"
      #expect(id == "s-" + decomposed + "-1", "String's == takes them for one")
      #expect(SessionKey(id) != SessionKey("s-" + decomposed + "-1"), "U+\(String(value, radix: 16))")
    }
    #expect(singletons == 3)
  }

  /// `text` in a native buffer with spare capacity (another representation of the same text).
  func spare(_ text: String) -> String {
    var copy = String()
    copy.reserveCapacity(text.utf8.count + 32)
    copy.append(text)
    return copy
  }

  /// The byte hash spreads ids that differ in one byte anywhere (a broken fold would lose a word or
  /// the tail): 64-bit hashes of a thousand such ids are all distinct.
  @Test func hashesOfNearIdsDiffer() {
    let base = Array("f47ac10b-58cc-4372-a567-0e02b2c3d479".utf8)
    var hashes = Set<Int>()
    var ids = 0
    for index in base.indices {
      for replacement in UInt8(ascii: "a")...UInt8(ascii: "z") where replacement != base[index] {
        var id = base
        id[index] = replacement
        hashes.insert(id.withUnsafeBufferPointer(SessionIDHash.of).hash)
        ids += 1
      }
    }
    #expect(ids > 900 && hashes.count == ids)
    // Lengths 0 through 17: the zero-padded tail does not make a shorter id hash as a longer one.
    let prefixes = (0...17).map { Array(repeating: UInt8(0), count: $0) }
    #expect(Set(prefixes.map { $0.withUnsafeBufferPointer(SessionIDHash.of).hash }).count == prefixes.count)
  }
}
