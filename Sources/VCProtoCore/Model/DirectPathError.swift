import VCProtoJSON

/// Why a ``ModelReader`` refused what it was reading (the generated `reading(_:)`): VCProtoJSON's
/// pull refusal, which the tree reader gives too. Internal to the decoder and never shown to a caller:
/// the validator alone explains a frame. After a miss of the bytes reader the frame goes to the tree
/// path, which reads it again; a miss of the tree reader means the frame has an error, and the
/// validator reports it. `.read`: the shared JSON primitives rejected the bytes (syntax, UTF-8, a
/// limit), and the tree reader reports the same error.
package typealias DirectPathError = JSONPullError
