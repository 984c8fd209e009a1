/// Strings made from bytes the JSON parser has already validated as UTF-8, without validating them again.
///
/// `String(decoding:as:)` checks every byte (`String._fromUTF8Repairing`), which repeats the parser's
/// own check (``JSONParser`` admits only RFC 3629 UTF-8: no overlong forms, no surrogates, nothing
/// past U+10FFFF) and, on text beyond ASCII, walks the bytes one at a time: about 7 % of decoding small
/// frames. The standard library makes its own Strings from validated bytes with
/// `String._uncheckedFromUTF8(_:isASCII:)`, an internal function it exports for inlinable code
/// (`@usableFromInline`, part of its stable ABI since Swift 5.0 on every platform); it is reached here
/// by its symbol, and used nowhere else. Debug builds still check what the caller vouches for.
extension String {
  /// A String of `bytes`, which must be well-formed UTF-8, and ASCII exactly when `isASCII` is true.
  @inline(__always)
  @usableFromInline package init(validatedUTF8 bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) {
    assert(String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes), "bytes that are not UTF-8")
    assert(isASCII == bytes.allSatisfy { $0 < 0x80 }, "isASCII is wrong")
    self = stringFromValidatedUTF8(bytes, isASCII: isASCII)
  }
}

/// `static String._uncheckedFromUTF8(_: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String` of the
/// standard library (a static method of a struct takes no `self` argument, so this signature is its
/// calling convention).
@_silgen_name("$sSS18_uncheckedFromUTF8_7isASCIISSSRys5UInt8VG_SbtFZ")
private func stringFromValidatedUTF8(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String
