#!/usr/bin/env bash
# Instruction counts (valgrind's callgrind) of vcproto's typed decode and of JSONDecoder on the same
# frames: a ratio that does not depend on the machine's load, for comparing changes on a busy machine.
# Each contender runs the frames once and three times; the difference, halved, is one round of decoding
# (corpus generation and start-up cancel out).
#   Benchmarks/instructions.sh [MIN_BYTES MAX_BYTES [FRAMES]]
set -euo pipefail
cd "$(dirname "$0")"
min=${1:-0} max=${2:-1023} frames=${3:-3000}
swift build -c release --product vcproto-bench 2>&1 | tail -n 1
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    .build/release/vcproto-bench profile --frames "$frames" --min-bytes "$min" --max-bytes "$max" "$@" 2>&1 |
    sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
round() { echo $((($(count --rounds 3 "$@") - $(count --rounds 1 "$@")) / 2)); }
vc=$(round --contender vcproto)
jd=$(round --contender jsondecoder)
echo "frames of $min-$max bytes: vcproto $vc instructions a round, JSONDecoder $jd; ratio $(python3 -c "print(f'{$jd/$vc:.2f}x')")"
