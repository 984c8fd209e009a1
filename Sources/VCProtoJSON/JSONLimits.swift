/// Bounds on every size an attacker controls while a frame is parsed.
///
/// Each limit turns hostile input into a specific error (and, in the validator, a finding with its own
/// code) instead of unbounded memory, time or stack use. The defaults fit the real protocol: the
/// largest legitimate frame is a `command_output_full` carrying up to 10 MiB of output.
public struct JSONLimits: Sendable, Hashable {
  /// Largest frame accepted, in bytes. Defends against memory exhaustion by one huge frame.
  /// Default 16 MiB. Finding code `frame_too_large`.
  public var maxFrameBytes: Int
  /// Deepest nesting of arrays and objects. Defends against stack exhaustion
  /// (`[[[[...` 100,000 deep). Default 128. Finding code `nesting_too_deep`.
  public var maxDepth: Int
  /// Longest string, in UTF-8 bytes after unescaping. Defends against one value taking the whole
  /// memory budget. Default 16 MiB. Finding code `string_too_long`.
  public var maxStringBytes: Int
  /// Most elements in one array. Defends against per-element overhead amplification
  /// (`[0,0,0,...]` costs far more in memory than on the wire). Default 1,000,000.
  /// Finding code `array_too_long`.
  public var maxArrayElements: Int
  /// Most members in one object. Defends against the same amplification (duplicate-key checks are
  /// linear whatever the size, see STANDARDS.md#limits). Default 100,000. Finding code
  /// `object_too_large`.
  public var maxObjectMembers: Int
  /// Longest number literal, in characters. Defends against slow big-number conversions
  /// (`1` followed by a million zeros). Default 64. Finding code `number_too_long`.
  public var maxNumberLength: Int
  /// Most values in one frame: the top-level value, every member value and every array element,
  /// at any depth. Defends against memory amplification: a parsed value costs up to about 90 bytes
  /// (its slot in the enclosing array or object, and the allocation of a non-empty container), so
  /// `[[0],[0],…]` or `[{},{},…]` would otherwise take 20 to 30 times the frame's size. Checked while
  /// parsing, before the value is read. Default 1,000,000 (a parsed tree of at most about 90 MB).
  /// Finding code `too_many_values`.
  public var maxValues: Int

  /// Creates limits; every parameter defaults to the documented default.
  public init(
    maxFrameBytes: Int = 16 << 20,
    maxDepth: Int = 128,
    maxStringBytes: Int = 16 << 20,
    maxArrayElements: Int = 1_000_000,
    maxObjectMembers: Int = 100_000,
    maxNumberLength: Int = 64,
    maxValues: Int = 1_000_000
  ) {
    self.maxFrameBytes = maxFrameBytes
    self.maxDepth = maxDepth
    self.maxStringBytes = maxStringBytes
    self.maxArrayElements = maxArrayElements
    self.maxObjectMembers = maxObjectMembers
    self.maxNumberLength = maxNumberLength
    self.maxValues = maxValues
  }

  /// The documented defaults.
  public static let `default` = JSONLimits()
}
