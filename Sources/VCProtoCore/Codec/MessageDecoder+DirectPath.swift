import VCProtoJSON

extension MessageDecoder {
  /// What the direct path reads of a decoder, and nothing else: the version, the direction, the
  /// limits, the handshake list bound and the member names. Every member is a plain value (no
  /// reference), so copying one costs no reference count.
  ///
  /// Why it exists: an engine keeps its decoder as a stored property, and calling ``decode(_:)`` on
  /// it copied the whole decoder first (its 160 bytes hold seven references: the catalog's tables,
  /// the logger, the capability set), a retain and a release of each for every frame, 29
  /// instructions a frame on the server engine (`Benchmarks/instructions.sh --engine-server`). An
  /// engine keeps this beside its decoder instead (``MessageDecoder/directPath``) and asks it first;
  /// the decoder proper is reached only when the direct path does not apply
  /// (``decodeOffTheDirectPath(_:)``).
  package struct DirectPath: Sendable {
    let version: ProtocolVersion
    let direction: MessageDirection?
    let limits: JSONLimits
    let handshakeListLimit: Int
    let knownKeys: KnownKeys

    /// The direct path of `decoder`, `nil` when it has none: a catalog of no known version, or
    /// negotiated capabilities to check (which only the validator checks).
    init?(_ decoder: MessageDecoder) {
      let options = decoder.validator.options
      guard options.negotiatedCapabilities == nil, let version = decoder.validator.catalog.knownVersion else {
        return nil
      }
      self.version = version
      direction = options.direction
      limits = options.limits
      handshakeListLimit = options.maxHandshakeListItems
      knownKeys = decoder.knownKeys
    }

    /// ``MessageDecoder/decode(_:)``'s first step: the typed message read straight from the bytes,
    /// `nil` when the direct path does not apply (the decoder's ``decodeOffTheDirectPath(_:)`` then
    /// decides).
    package func decode(_ bytes: [UInt8]) -> AnyMessage? {
      read(bytes, clean: false, stats: nil, with: BytesReader.self)
    }

    /// ``decode(_:)`` for a decoder of client frames (direction client to server): the client
    /// message itself, `nil` when the direct path does not read the frame as one. Returned as it is,
    /// not inside an ``AnyMessage``: the caller passes it on without moving it out of one first.
    package func decodeClient(_ bytes: [UInt8]) -> ClientMessage? {
      guard case .client(let message)? = read(bytes, clean: false, stats: nil, with: BytesReader.self) else {
        return nil
      }
      return message
    }

    /// The direct path over the reader `R`: ``BytesReader`` builds the message; ``CheckingReader``
    /// yields the same verdict without making the strings no rule looks at
    /// (``MessageDecoder/cleanFrame(_:)``). What the parse cost is written to `stats` when given (a
    /// decoder proper does not compute it).
    @inline(__always)
    func read<R: FrameBytesReader>(
      _ bytes: [UInt8], clean: Bool, stats: UnsafeMutablePointer<JSONParseStats>?, with _: R.Type
    ) -> AnyMessage? {
      let limits = limits
      let direction = direction
      let version = version
      let knownKeys = knownKeys
      let handshakeListLimit = handshakeListLimit
      // The frame, borrowed for the read: what the model keeps as raw JSON is a slice of it. (Its
      // buffer comes from `bytes` itself: through `frame.pointee` the array was retained.)
      return withUnsafePointer(to: bytes) { frame in
        bytes.withUnsafeBufferPointer { buffer -> AnyMessage? in
          guard buffer.count <= limits.maxFrameBytes,
            !(buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF)
          else { return nil }
          var reader = R(buffer: buffer, limits: limits, knownKeys: knownKeys)
          reader.frame = frame
          defer { if let stats { stats.pointee = reader.parser.finalStats } }
          reader.parser.stats.values = 1  // the frame itself; its members and elements count as they are read
          // Handshake messages check their lists against this bound and the connection's version rules.
          reader.handshakeListLimit = handshakeListLimit
          guard let type = reader.parser.pullLeadingType() else { return nil }  // where the type's bytes are
          do throws(DirectPathError) {
            let message: AnyMessage
            // Without a direction, the server's types are tried first: most of the traffic such a decoder
            // sees (a capture, a client's stream) is the server's. The two sets of types are disjoint
            // (`DirectDecodeTests.clientAndServerTypesAreDisjoint`), so the order changes no result.
            if direction != .clientToServer,
              let m = try ServerMessage.read(type: type, version: version, &reader, typeConsumed: true)
            {
              message = .server(m)
            } else if direction != .serverToClient,
              let m = try ClientMessage.read(type: type, version: version, &reader, typeConsumed: true)
            {
              message = .client(m)
            } else {
              return nil
            }
            reader.parser.skipWhitespace()
            // A type the model has but this version lacks is the validator's (not_in_version): `pull`
            // returns nil for it.
            guard reader.parser.pos == buffer.count, !(clean && reader.sawExtraMember) else { return nil }
            return message
          } catch {
            // A miss or a JSON error (`DirectPathError`): never reported from here. The tree path reads
            // the frame again and reports exactly what is wrong with it, if anything.
            return nil
          }
        }
      }
    }
  }

  /// The direct path ``decode(_:)`` takes first, held apart (``DirectPath``): `nil` when it takes
  /// none (strategy `.validated`, no known version, negotiated capabilities to check). For a decoder
  /// that does not change, `directPath?.decode(bytes) ?? decodeOffTheDirectPath(bytes)` is
  /// ``decode(_:)``.
  package var directPath: DirectPath? { strategy == .validated ? nil : DirectPath(self) }
}
