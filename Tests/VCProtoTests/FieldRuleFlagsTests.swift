import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The generated direct path hands a cross-member rule its flags as bits (``FieldRule/MemberFlags``), the
/// validator as an array of `Bool`: the same rule must give the same verdict from both, for every rule
/// of every catalog and every combination of its members.
@Suite struct FieldRuleFlagsTests {
  @Test func bitsAndArraysGiveTheSameVerdict() {
    var checked = 0
    for catalog in ProtocolCatalog.all {
      for spec in catalog.messages {
        for rule in spec.rules {
          let n = rule.fieldNames.count
          #expect(n <= 16, "\(spec.type): rule with \(n) members")
          for bits in 0..<(UInt64(1) << UInt64(n)) {
            let array = (0..<n).map { bits & (1 << UInt64($0)) != 0 }
            let flags = FieldRule.MemberFlags(count: n, bits: bits)
            #expect(Array(flags) == array)
            #expect(rule.violation(flags: flags) == rule.violation(set: array), "\(spec.type) \(rule) \(array)")
            #expect(rule.holds(flags: flags) == rule.holds(set: array))
            checked += 1
          }
        }
      }
    }
    #expect(checked > 0)
  }

  /// A rule over two members that may not both be sent: bit 0 is the first member, bit 1 the second.
  @Test func bitOrderIsMemberOrder() {
    let rule = FieldRule.mutuallyExclusive(["new_session_id", "resume_session_id"])
    #expect(rule.holds(flags: FieldRule.MemberFlags(count: 2, bits: 0b01)))
    #expect(rule.holds(flags: FieldRule.MemberFlags(count: 2, bits: 0b10)))
    #expect(
      rule.violation(flags: FieldRule.MemberFlags(count: 2, bits: 0b11))
        == .mutuallyExclusive(set: ["new_session_id", "resume_session_id"]))
    let requires = FieldRule.requires("auth_response", "client_nonce")
    #expect(requires.violation(flags: FieldRule.MemberFlags(count: 2, bits: 0b01)) != nil)
    #expect(requires.holds(flags: FieldRule.MemberFlags(count: 2, bits: 0b10)))
  }
}
