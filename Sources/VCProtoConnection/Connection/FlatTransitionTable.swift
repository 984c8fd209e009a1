import VCProtoCore
import VCProtoJSON

/// A state or an event kind of a transition table: an enumeration whose cases are the table's rows
/// or columns, in declaration order (``ordinal`` is the case's index in `allCases`, which the tests
/// check for every case).
protocol TransitionIndexed: CaseIterable, Hashable {
  /// The case's index in `allCases`.
  var ordinal: Int { get }
}

/// A transition table (state → event kind → target states) laid out flat for the engines' per-event
/// check: entry `state.ordinal * Kind.allCases.count + kind.ordinal` is a bit mask of the target
/// states (bit `target.ordinal`), 0 when the event is illegal in that state. Built from the declared
/// table, so the two cannot disagree; shared by `ClientTransitions` and `ServerTransitions`.
enum FlatTransitionTable {
  /// A table with every (state, kind) pair present and empty: illegal until the declaration says
  /// otherwise, so that no pair is left out.
  static func empty<State: TransitionIndexed, Kind: TransitionIndexed>(
    _: State.Type, _: Kind.Type
  ) -> [State: [Kind: Set<State>]] {
    Dictionary(
      uniqueKeysWithValues: State.allCases.map { state in
        (state, Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, Set<State>()) }))
      })
  }

  static func build<State: TransitionIndexed, Kind: TransitionIndexed, Mask: FixedWidthInteger>(
    _ table: [State: [Kind: Set<State>]], as _: Mask.Type
  ) -> [Mask] {
    let columns = Kind.allCases.count
    var flat = [Mask](repeating: 0, count: State.allCases.count * columns)
    for state in State.allCases {
      for kind in Kind.allCases {
        guard let targets = table[state]?[kind] else { continue }
        flat[state.ordinal * columns + kind.ordinal] = targets.reduce(0) { $0 | 1 << $1.ordinal }
      }
    }
    return flat
  }
}
