#!/usr/bin/env bash
# Checks a release build for a cost the generated readers must not have: a copy of the whole decoded
# value (Swift's outlined copy `...VWOc`, a retain of every member, then a release of every member).
# Swift 6.3 makes one where a struct with several optional members is assigned in an initializer, which
# is why the generated reader is a static function building the value with the memberwise initializer
# (SwiftModelGenerator.structDecl). Any `reading` function of VCProtoCore that calls one fails the check.
#   Benchmarks/reader-copies.sh [BINARY]     (default: the release vcproto-bench of run.sh)
set -euo pipefail
cd "$(dirname "$0")"
binary=${1:-.build/release/vcproto-bench}
command -v objdump >/dev/null || { echo "reader-copies: objdump not found (binutils)" >&2; exit 2; }
# The functions looked at: VCProtoCore's readers (`reading`) and what a reader may be inlined into (the
# versioned enums' `reading`, the message enums' and ModelReadable's `read`); on Apple platforms symbols
# start with `_`, and arm64 calls with `bl`.
objdump -d --no-show-raw-insn "$binary" | awk '
  /^[0-9a-f]+ <.*>:$/ {
    fn = substr($2, 1, length($2) - 1)
    reader = (fn ~ /^<_?\$s11VCProtoCore/ && fn ~ /(7reading|4read)/)
    if (reader) readers++
  }
  reader && /(call|bl)[^<]*<[^>]*V(Sg)?WOc>/ { print "copy in " fn ": " $NF; copies++ }
  END {
    if (readers < 50) { print "reader-copies: only " readers + 0 " reader functions found; symbol names changed?"; exit 2 }
    printf "reader-copies: %d reader functions, %d whole-value copies\n", readers, copies
    exit copies > 0
  }'
