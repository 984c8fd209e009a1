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
objdump -d --no-show-raw-insn "$binary" | awk '
  /^[0-9a-f]+ <.*>:$/ { fn = $2; reader = (fn ~ /^<\$s11VCProtoCore/ && fn ~ /V7reading/) ; if (reader) readers++ }
  reader && /call.*VWOc>/ { print "copy in " fn ": " $NF; copies++ }
  END {
    if (readers < 50) { print "reader-copies: only " readers + 0 " reader functions found; symbol names changed?"; exit 2 }
    printf "reader-copies: %d reader functions, %d whole-value copies\n", readers, copies
    exit copies > 0
  }'
