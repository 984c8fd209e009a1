#!/usr/bin/env bash
# Instruction counts (valgrind's callgrind) of vcproto and of Foundation's coders on the same frames: a
# ratio that does not depend on the machine's load, for comparing changes on a busy machine.
# Each contender runs the frames once and three times; the difference, halved, is one round
# (corpus generation and start-up cancel out).
#   Benchmarks/instructions.sh [--protocol VERSION] [--encode] [MIN_BYTES MAX_BYTES [FRAMES]]
# `--protocol 0.5.0`: the 0.5.0 corpus, decoded as 0.5.0 (default 0.2.0, like run.sh).
# `--encode`: MessageEncoder against JSONEncoder instead of the typed decode against JSONDecoder.
set -euo pipefail
cd "$(dirname "$0")"
protocol=0.2.0 encode=""
while [ $# -gt 0 ]; do
  case "$1" in
    --protocol) protocol=$2; shift 2 ;;
    --encode) encode=1; shift ;;
    *) break ;;
  esac
done
min=${1:-0} max=${2:-1023} frames=${3:-3000}
swift build -c release --product vcproto-bench 2>&1 | tail -n 1
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    .build/release/vcproto-bench profile --protocol "$protocol" --frames "$frames" --min-bytes "$min" \
    --max-bytes "$max" "$@" 2>&1 | sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
round() { echo $((($(count --rounds 3 "$@") - $(count --rounds 1 "$@")) / 2)); }
if [ -n "$encode" ]; then
  vc=$(round --contender vcproto-encode) base=$(round --contender jsonencoder) what="encode" name=JSONEncoder
else
  vc=$(round --contender vcproto) base=$(round --contender jsondecoder) what="decode" name=JSONDecoder
fi
echo "protocol $protocol, $what, frames of $min-$max bytes: vcproto $vc instructions a round, $name $base;" \
  "ratio $(python3 -c "print(f'{$base/$vc:.2f}x')")"
