import VCProto

/// One finding with everything the output needs: which input, where in it, which frame.
struct FindingRecord: Sendable {
  /// The input's name as given on the command line (`-` is shown as `<stdin>`).
  var source: String
  /// The line or frame index.
  var position: FramePosition
  /// The frame's direction, when known.
  var direction: MessageDirection?
  /// The frame's type, when known.
  var messageType: String?
  /// The finding itself (already redacted by whoever made it).
  var finding: Finding

  /// `file:12` for line-based inputs, `file#3` for frame indexes.
  var location: String {
    switch position {
    case .line(let n): return "\(source):\(n)"
    case .entry(let n): return "\(source)#\(n)"
    }
  }
}
