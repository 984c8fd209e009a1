import VCProtoCore
import VCProtoJSON

extension ServerEngine {
  /// One capability a server-to-client frame needs: the catalog's name and the engine's bit for it
  /// (empty when the engine has no bit, in which case the name is looked up in the outcome).
  struct CapabilityGate: Sendable {
    /// `nil` for the message itself, else the member that needs it when present and not null.
    var member: String?
    var name: String
    var flag: CapabilityFlags
  }

  /// What each server-to-client message type needs negotiated, derived from the catalog
  /// (``MessageSpec/capability`` and ``FieldSpec/capability`` of every version), so the engine and the
  /// validator read one declaration. Types without a gate are absent.
  static let capabilityGates: [String: [CapabilityGate]] = {
    var gates: [String: [CapabilityGate]] = [:]
    for catalog in ProtocolCatalog.all {
      for message in catalog.messages(.serverToClient) {
        var found: [CapabilityGate] = []
        if let name = message.capability {
          found.append(CapabilityGate(member: nil, name: name, flag: CapabilityFlags([name])))
        }
        for field in message.fields {
          if let name = field.capability {
            found.append(CapabilityGate(member: field.name, name: name, flag: CapabilityFlags([name])))
          }
        }
        for gate in found where !(gates[message.type] ?? []).contains(where: { $0.member == gate.member }) {
          gates[message.type, default: []].append(gate)
        }
      }
    }
    return gates
  }()

  /// The first capability `message` needs that this connection did not negotiate: its name and what
  /// needs it (the message or one of its members). Typed messages say what they need
  /// (``ServerMessage/requiredCapabilities``); an unmodelled frame is looked up in
  /// ``capabilityGates``.
  func missingCapability(_ message: ServerMessage) -> (name: String, what: String)? {
    guard case .unknown(let object) = message else {
      for name in message.requiredCapabilities where !granted(name) {
        return (name, "\"\(message.type)\"")
      }
      return nil
    }
    let type = object["type"]?.stringValue ?? ""
    guard let gates = Self.capabilityGates[type] else { return nil }
    for gate in gates {
      if let member = gate.member {
        guard let value = object[member], !value.isNull else { continue }
      }
      if !granted(gate.name) {
        return (gate.name, gate.member.map { "member \"\($0)\" of \"\(type)\"" } ?? "\"\(type)\"")
      }
    }
    return nil
  }

  /// Whether the connection negotiated `name` (by its bit when the engine has one).
  func granted(_ name: String) -> Bool {
    let flag = CapabilityFlags([name])
    return flag.isEmpty ? (outcome?.capabilities.contains(name) ?? false) : capabilityFlags.contains(flag)
  }
}
