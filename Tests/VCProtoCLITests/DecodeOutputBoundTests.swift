import Foundation
import Testing
import VCProto

@testable import VCProtoCLI

/// `vcproto decode` pretty-prints a frame. Indenting every level let a hostile frame nested 120 deep
/// print a 1 MB frame as 124 MB (and hold 480 MB doing it): the printer now indents at most
/// ``PrettyPrinter/maxIndentedDepth`` levels and writes deeper containers compactly.
@Suite struct DecodeOutputBoundTests {
  /// `[[...]]` nested `depth` deep, repeated until the frame has about `bytes` bytes.
  static func nestedFrame(depth: Int, bytes: Int) -> String {
    let unit = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let units = Array(repeating: unit, count: max(1, bytes / (unit.count + 1)))
    return #"{"type":"ping","x":["# + units.joined(separator: ",") + "]}"
  }

  @Test func deeplyNestedFrameDecodesToProportionateOutput() {
    let frame = Self.nestedFrame(depth: 120, bytes: 200_000)
    let r = runCommand(["decode", "-"], stdin: frame)
    #expect(r.status == 0, "\(r.err)")
    // Compact 200 KB; every level indented it was about 24 MB.
    #expect(r.out.utf8.count < 12 * frame.utf8.count, "\(r.out.utf8.count) bytes for \(frame.utf8.count)")
    // Still the same JSON.
    let printed = try? JSONReader().parse(r.out)
    #expect(printed == (try? JSONReader().parse(frame)))
    for line in r.out.split(separator: "\n") {
      let indent = line.prefix { $0 == " " }.count
      #expect(indent <= 2 * PrettyPrinter.maxIndentedDepth)
    }
  }

  @Test func levelsBelowTheBoundAreIndentedAndDeeperOnesCompact() {
    // 12 levels: the 10 outer ones are indented, the innermost containers written on one line.
    let value = try! JSONReader().parse(String(repeating: "[", count: 12) + "1" + String(repeating: "]", count: 12))
    let lines = PrettyPrinter.text(value).split(separator: "\n").map(String.init)
    #expect(lines.count == 21)
    #expect(lines[10] == String(repeating: "  ", count: 10) + "[[1]]")
    #expect(lines.first == "[" && lines.last == "]")
  }

  @Test func piecesJoinToTheWholeText() throws {
    var members: [String] = []
    for i in 0..<5_000 { members.append(#""m\#(i)":{"a":[1,2,{"b":"\#(String(repeating: "x", count: 40))"}]}"#) }
    let value = try! JSONReader().parse("{" + members.joined(separator: ",") + "}")
    var pieces: [String] = []
    PrettyPrinter.write(value) { pieces.append($0) }
    #expect(pieces.count > 1)
    #expect(pieces.dropLast().allSatisfy { $0.utf8.count < 2 * PrettyPrinter.chunkBytes })
    #expect(pieces.joined() == PrettyPrinter.text(value))
    #expect(try JSONReader().parse(pieces.joined()) == value)
  }
}
