/// A transition table (state → event name → target states) laid out flat for the engines' per-event
/// check: entry `ordinal(state) * eventNames.count + kind` is a bit mask of the target states (bit
/// `ordinal(target)`), 0 when the event is illegal in that state. Built from the declared table, so
/// the two cannot disagree; shared by ``ClientTransitions`` and ``ServerTransitions``.
enum FlatTransitionTable {
  static func build<State: CaseIterable & Hashable, Mask: FixedWidthInteger>(
    _ table: [State: [String: Set<State>]], eventNames: [String], ordinal: (State) -> Int, as _: Mask.Type
  ) -> [Mask] {
    var flat = [Mask](repeating: 0, count: State.allCases.count * eventNames.count)
    for state in State.allCases {
      for (kind, name) in eventNames.enumerated() {
        guard let targets = table[state]?[name] else { continue }
        flat[ordinal(state) * eventNames.count + kind] = targets.reduce(0) { $0 | 1 << ordinal($1) }
      }
    }
    return flat
  }
}
