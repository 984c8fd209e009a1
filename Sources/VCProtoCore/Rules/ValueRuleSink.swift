import VCProtoJSON

/// Receives what ``ValueRules`` finds while it walks a value, and tracks where the walk is.
///
/// The validator's ``ValidationState`` turns every violation into a finding at the current JSON
/// Pointer; ``RuleBreak`` only remembers that an error occurred and stops the walk (a yes/no check).
package protocol ValueRuleSink {
  /// `true` when the walk may stop: nothing more the sink would record can change its outcome.
  var isHalted: Bool { get }
  /// Whether warnings (undeclared members) are wanted; when `false` the walk does not look for them.
  var wantsWarnings: Bool { get }
  /// `true` once an error was recorded.
  var hasErrors: Bool { get }
  /// How many errors were recorded (a sink that halts at the first says 1).
  var errorCount: Int { get }
  /// Records a violation at the current position.
  mutating func record(_ violation: ValueViolation)
  /// The walk goes into the member `name` of the current object; `composite` when its type nests
  /// values (a shape, an array, alternatives).
  mutating func enterMember(_ name: String, composite: Bool)
  /// The walk leaves the member entered last (`composite` as given to ``enterMember(_:composite:)``).
  mutating func leaveMember(composite: Bool)
  /// The walk goes into the element `index` of the current array.
  mutating func enterElement(_ index: Int)
  /// The walk leaves the element entered last.
  mutating func leaveElement()
  /// A fresh sink at the same position, for trying one alternative of a `oneOf` type.
  func trial() -> Self
  /// Takes over what a trial recorded: the warnings of the alternative that matched, or, when none
  /// did, everything the closest one found.
  mutating func absorb(_ trial: Self)
}

/// The sink of a yes/no check: remembers whether any error was found and halts the walk at the first.
package struct RuleBreak: ValueRuleSink {
  /// Whether an error was recorded.
  package private(set) var hasErrors = false

  package var isHalted: Bool { hasErrors }
  package var wantsWarnings: Bool { false }
  package var errorCount: Int { hasErrors ? 1 : 0 }

  package mutating func record(_ violation: ValueViolation) {
    if violation.isError { hasErrors = true }
  }

  @inline(__always) package mutating func enterMember(_ name: String, composite: Bool) {}
  @inline(__always) package mutating func leaveMember(composite: Bool) {}
  @inline(__always) package mutating func enterElement(_ index: Int) {}
  @inline(__always) package mutating func leaveElement() {}
  package func trial() -> RuleBreak { RuleBreak() }
  package mutating func absorb(_ trial: RuleBreak) { hasErrors = hasErrors || trial.hasErrors }
}
