#ifndef VCPROTO_CZLIB_SHIM_H
#define VCPROTO_CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 / inflateInit2 are function-like macros in zlib.h, which Swift
// cannot import. These inline wrappers expose them with the parameters the
// envelope uses (method Z_DEFLATED, memLevel 8, Z_DEFAULT_STRATEGY: the same
// settings compress2() uses), passing the header's ZLIB_VERSION for the ABI check.
static inline int vcproto_deflateInit2(z_streamp strm, int level, int windowBits) {
  return deflateInit2(strm, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}

static inline int vcproto_inflateInit2(z_streamp strm, int windowBits) {
  return inflateInit2(strm, windowBits);
}

#endif
