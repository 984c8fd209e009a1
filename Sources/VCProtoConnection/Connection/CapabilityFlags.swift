import VCProtoCore
import VCProtoJSON

/// The capabilities an engine checks on every frame, as bits: a set of strings costs a hash per
/// check, a mask an `and`. Derived from the negotiated capability names, never set on its own.
struct CapabilityFlags: OptionSet, Sendable, Hashable {
  let rawValue: UInt8

  static let heartbeat = CapabilityFlags(rawValue: 1 << 0)
  static let draining = CapabilityFlags(rawValue: 1 << 1)
  static let disconnect = CapabilityFlags(rawValue: 1 << 2)
  static let messageAck = CapabilityFlags(rawValue: 1 << 3)
  static let idempotentPrompt = CapabilityFlags(rawValue: 1 << 4)
  static let compressionText = CapabilityFlags(rawValue: 1 << 5)
  static let compressionBinary = CapabilityFlags(rawValue: 1 << 6)

  init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The flags of the names in `names` (other names have no flag).
  init<Names: Sequence<String>>(_ names: Names) {
    var flags: CapabilityFlags = []
    for name in names {
      switch name {
      case Capability.heartbeat: flags.insert(.heartbeat)
      case Capability.draining: flags.insert(.draining)
      case Capability.disconnect: flags.insert(.disconnect)
      case Capability.messageAck: flags.insert(.messageAck)
      case Capability.idempotentPrompt: flags.insert(.idempotentPrompt)
      case Capability.compressionText: flags.insert(.compressionText)
      case Capability.compressionBinary: flags.insert(.compressionBinary)
      default: break
      }
    }
    self = flags
  }
}
