import VCProtoConnection
import VCProtoCore
import VCProtoEnvelope
import VCProtoJSON

/// One finding with everything the output needs: which input, where in it, which frame.
package struct FindingRecord: Sendable {
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
  /// The connection, when the capture names it (`vcproto-tap`'s records).
  var connection: Int?

  /// `file:12` for line-based inputs, `file#3` for frame indexes; `file:12 (connection 3)` when the
  /// capture names the connection.
  var location: String {
    let place: String
    switch position {
    case .line(let n): place = "\(source):\(n)"
    case .entry(let n): place = "\(source)#\(n)"
    }
    return connection.map { "\(place) (connection \($0))" } ?? place
  }
}
