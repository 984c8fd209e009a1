#!/usr/bin/env bash
# Instruction counts (valgrind's callgrind) of vcproto and of Foundation's coders on the same frames: a
# ratio that does not depend on the machine's load, for comparing changes on a busy machine.
# Each contender runs the frames once and three times; the difference, halved, is one round
# (corpus generation and start-up cancel out).
#   Benchmarks/instructions.sh [--protocol VERSION] [--encode] [MIN_BYTES MAX_BYTES [FRAMES]]
# `--protocol 0.5.0`: the 0.5.0 corpus, decoded as 0.5.0 (default 0.2.0, like run.sh).
# `--encode`: MessageEncoder against JSONEncoder instead of the typed decode against JSONDecoder.
#   Benchmarks/instructions.sh --engine [--protocol VERSION] [--workload steady|first-contact|many-open|all-subscribed] [--cache]
#     [FRAMES [history|other]]
# `--engine`: the connection engines' instructions per frame against MessageDecoder's (RESULTS.md,
# "Connection engines"): bytes -> engine -> typed event (the application's requests included) against
# decoding the same bytes. Counted only inside each contender's function (`--toggle-collect`), so
# neither the corpus nor the engines' setup is included. `--protocol 0.5.0`: the 0.5.0 engine workload
# (engines and decoder at 0.5.0). `--workload`: the client's history traffic (steady by default: four
# sessions followed as they grow; first-contact: sessions opened one after another, the one shown
# before unsubscribed; many-open: the same keeping 32 open, the oldest unsubscribed; all-subscribed:
# every session of the corpus subscribed up front; the last two are stress cases). `--cache`: also
# callgrind's cache simulation, with a fixed geometry so that figures compare across machines (32 KiB
# 8-way L1 for instructions and data, 4 MiB 16-way last level, 64-byte lines): first-level data misses
# (D1, reads and writes) and last-level data misses (LL) per frame.
#   Benchmarks/instructions.sh --engine-server [--protocol VERSION] [--cache] [FRAMES [TYPE]]
# `--engine-server`: the server engine's instructions per client-to-server frame against
# MessageDecoder's (the same frames as `vcproto-bench engine-server`, FRAMES corpus frames, 20000 by
# default; TYPE: only frames of that type), counted only inside each contender's function; the
# engine is a new connection, as in every round of `vcproto-bench engine-server`. `--cache`: also
# the data cache misses per frame, as for `--engine`.
set -euo pipefail
cd "$(dirname "$0")"
protocol=0.2.0 encode="" engine="" cache="" workload=steady server=""
while [ $# -gt 0 ]; do
  case "$1" in
    --protocol) protocol=$2; shift 2 ;;
    --encode) encode=1; shift ;;
    --engine) engine=1; shift ;;
    --engine-server) server=1; shift ;;
    --cache) cache=1; shift ;;
    --workload) workload=$2; shift 2 ;;
    *) break ;;
  esac
done
if [ -n "$server" ]; then
  frames=${1:-20000} only=${2:-}
  ../tools/swift-build-fresh.sh .build release --product vcproto-bench | tail -n 1
  # Prints "Ir D1-misses LL-misses" of one contender (the misses are 0 without --cache).
  server_count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*ServerEngineBenchmark*measured*' \
      ${cache:+--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=4194304,16,64} \
      .build/release/vcproto-bench engine-server-profile --protocol "$protocol" --frames "$frames" \
      ${only:+--only "$only"} --contender "$1" 2>&1 |
      sed -n 's/.*Collected : *//p' | awk '{ if (NF >= 9) print $1, $5 + $6, $8 + $9; else print $1, 0, 0 }'
  }
  n=$(.build/release/vcproto-bench engine-server-profile --protocol "$protocol" --frames "$frames" \
    ${only:+--only "$only"} --contender decode | sed -n 's/^frames \([0-9]*\).*/\1/p')
  engine=$(server_count engine) decode=$(server_count decode)
  # shellcheck disable=SC2086 # each count is three numbers
  python3 - "$n" "${only:-all}" "$protocol" "$cache" $engine $decode <<'EOF'
import sys
n, what, version, cache = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
engine, decode = (tuple(int(v) for v in sys.argv[5 + 3 * i:8 + 3 * i]) for i in range(2))
print(f"protocol {version}, server engine, {what} client frames ({n}), instructions per frame: decode {decode[0] / n:,.0f}, "
      f"bytes -> engine -> typed event {engine[0] / n:,.0f}: engine over decoding {(engine[0] / decode[0] - 1) * 100:.2f} %")
if cache:
    for level, i in (("D1", 1), ("LL", 2)):
        print(f"{level} data misses per frame: decode {decode[i] / n:,.1f}, engine {engine[i] / n:,.1f}")
EOF
  exit 0
fi
if [ -n "$engine" ]; then
  frames=${1:-3000} only=${2:-}
  ../tools/swift-build-fresh.sh .build release --product vcproto-bench | tail -n 1
  # Prints "Ir D1-misses LL-misses" of one contender (the misses are 0 without --cache).
  engine_count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*EngineBenchmark*measured*' \
      ${cache:+--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=4194304,16,64} \
      .build/release/vcproto-bench engine-profile --protocol "$protocol" --frames "$frames" ${only:+--only "$only"} \
      --workload "$workload" --contender "$1" 2>&1 |
      sed -n 's/.*Collected : *//p' | awk '{ if (NF >= 9) print $1, $5 + $6, $8 + $9; else print $1, 0, 0 }'
  }
  n=$(.build/release/vcproto-bench engine-profile --protocol "$protocol" --frames "$frames" ${only:+--only "$only"} \
    --workload "$workload" --contender decode | sed -n 's/^frames \([0-9]*\).*/\1/p')
  engines=$(engine_count engines) decode=$(engine_count decode)
  # shellcheck disable=SC2086 # each count is three numbers
  python3 - "$n" "${only:-all}" "$protocol" "$cache" "$workload" $engines $decode <<'EOF'
import sys
n, what, version, cache, workload = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
engines, decode = (tuple(int(v) for v in sys.argv[6 + 3 * i:9 + 3 * i]) for i in range(2))
print(f"protocol {version}, {workload} workload, {what} frames ({n}), instructions per frame: decode {decode[0] / n:,.0f}, "
      f"bytes -> engine -> typed event {engines[0] / n:,.0f}: engines over decoding {(engines[0] / decode[0] - 1) * 100:.2f} %")
if cache:
    for level, i in (("D1", 1), ("LL", 2)):
        print(f"{level} data misses per frame: decode {decode[i] / n:,.1f}, engines {engines[i] / n:,.1f}")
EOF
  exit 0
fi
min=${1:-0} max=${2:-1023} frames=${3:-3000}
../tools/swift-build-fresh.sh .build release --product vcproto-bench | tail -n 1
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
