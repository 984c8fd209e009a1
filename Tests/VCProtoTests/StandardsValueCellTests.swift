import Foundation
import Testing

@testable import VCProtoConnection
@testable import VCProtoCore
@testable import VCProtoEnvelope
@testable import VCProtoJSON

/// The *values* cell of the member tables (docs/MESSAGES.md) says what the catalog allows: a member whose
/// allowed set is empty (only `null`, like 0.4.0's `subscribe.last_message_id`) must not read
/// "one of" followed by nothing.
@Suite struct StandardsValueCellTests {
  @Test func everyAllowedSetIsSpelledOut() throws {
    let text = try String(
      contentsOf: StandardsContentsTests.root.appendingPathComponent("docs/MESSAGES.md"), encoding: .utf8)
    let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }
    #expect(rows.count > 100)
    for row in rows {
      let cells = row.split(separator: "|", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      for cell in cells where cell.hasPrefix("one of") {
        #expect(cell.count > "one of ".count, "\(row)")
      }
    }
    // The member the catalog restricts to null in 0.4.0 (versions.md 3.2: a non-null value is refused).
    let spec = try #require(ProtocolCatalog.version("0.4.0")?.message("subscribe")?.field("last_message_id"))
    #expect(spec.allowedValues == [])
    #expect(rows.contains { $0.hasPrefix("| `last_message_id` | 0.4.0 |") && $0.contains("| only `null` |") })
  }
}
