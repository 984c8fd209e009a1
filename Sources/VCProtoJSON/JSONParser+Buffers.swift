/// The parser's growable buffers, made on first use.
///
/// Building a tree needs two stacks, a long escaped string heap space, and the direct path's
/// undeclared members a set of names per nesting level. A frame the direct path reads into typed
/// fields alone needs none of them: held together as one optional value, they cost that parser
/// nothing to make and nothing to drop (three empty arrays are three releases when the parser goes).
/// The properties below read as the buffers themselves; writing to one makes them.
extension JSONParser {
  @usableFromInline package struct Buffers {
    /// The unescaped bytes of an escaped string that outgrew its stack space (``parseString()``).
    var unescapeSpace: UnescapeSpace? = nil
    /// Elements of the arrays being read, innermost last.
    var valueStack: [JSONValue] = []
    /// Members of the objects being read, innermost last.
    var memberStack: [JSONObject.Member] = []
    /// The direct path's undeclared-member names, one set per nesting level (see ``pullExtra(_:into:)``).
    @usableFromInline var extraNames: [MemberNames] = []

    @usableFromInline init() {}
  }

  var unescapeSpace: UnescapeSpace? {
    get { buffers?.unescapeSpace }
    set {
      if buffers == nil { buffers = Buffers() }
      buffers!.unescapeSpace = newValue
    }
  }

  var valueStack: [JSONValue] {
    _read { yield buffers?.valueStack ?? [] }
    _modify {
      if buffers == nil { buffers = Buffers() }
      yield &buffers!.valueStack
    }
  }

  var memberStack: [JSONObject.Member] {
    _read { yield buffers?.memberStack ?? [] }
    _modify {
      if buffers == nil { buffers = Buffers() }
      yield &buffers!.memberStack
    }
  }

  @usableFromInline var extraNames: [MemberNames] {
    @inlinable _read { yield buffers?.extraNames ?? [] }
    @inlinable _modify {
      if buffers == nil { buffers = Buffers() }
      yield &buffers!.extraNames
    }
  }
}
