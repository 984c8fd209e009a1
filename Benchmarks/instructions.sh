#!/usr/bin/env bash
# Instruction counts (valgrind's callgrind) of vcproto and of Foundation's coders on the same frames: a
# ratio that does not depend on the machine's load, for comparing changes on a busy machine.
# Each contender runs the frames once and three times; the difference, halved, is one round
# (corpus generation and start-up cancel out).
#   Benchmarks/instructions.sh [--protocol VERSION] [--encode] [MIN_BYTES MAX_BYTES [FRAMES]]
# `--protocol 0.5.0`: the 0.5.0 corpus, decoded as 0.5.0 (default 0.2.0, like run.sh).
# `--encode`: MessageEncoder against JSONEncoder instead of the typed decode against JSONDecoder.
#   Benchmarks/instructions.sh --engine [FRAMES [history|other]]
# `--engine`: the connection engines' instructions per frame against MessageDecoder's (RESULTS.md,
# "Connection engines"): in the host pipeline (parse + engines, minus parse) and cache-cold (the
# engines alone on frames parsed beforehand). Counted only inside each contender's function
# (`--toggle-collect`), so neither the corpus nor the engines' setup is included.
set -euo pipefail
cd "$(dirname "$0")"
protocol=0.2.0 encode="" engine=""
while [ $# -gt 0 ]; do
  case "$1" in
    --protocol) protocol=$2; shift 2 ;;
    --encode) encode=1; shift ;;
    --engine) engine=1; shift ;;
    *) break ;;
  esac
done
if [ -n "$engine" ]; then
  frames=${1:-3000} only=${2:-}
  swift build -c release --product vcproto-bench 2>&1 | tail -n 1
  engine_count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*EngineBenchmark*measured*' \
      .build/release/vcproto-bench engine-profile --frames "$frames" ${only:+--only "$only"} --contender "$1" 2>&1 |
      sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ,
  }
  n=$(.build/release/vcproto-bench engine-profile --frames "$frames" ${only:+--only "$only"} --contender parse |
    sed -n 's/^frames \([0-9]*\).*/\1/p')
  parse=$(engine_count parse) pipeline=$(engine_count pipeline) decode=$(engine_count decode) cold=$(engine_count cold)
  python3 - "$n" "$parse" "$pipeline" "$decode" "$cold" "${only:-all}" <<'EOF'
import sys
n, parse, pipeline, decode, cold = (int(a) for a in sys.argv[1:6])
engines = pipeline - parse
print(f"{sys.argv[6]} frames ({n}), instructions per frame: decode {decode / n:,.0f}, parse {parse / n:,.0f}, "
      f"parse + engines {pipeline / n:,.0f}, engines alone (cold) {cold / n:,.0f}")
print(f"engines in the host pipeline: {engines / n:,.0f} a frame = {engines / decode * 100:.2f} % of decode, "
      f"{engines / parse * 100:.2f} % of parse; engines alone: {cold / decode * 100:.2f} % of decode")
EOF
  exit 0
fi
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
