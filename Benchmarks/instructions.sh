#!/usr/bin/env bash
# Instruction counts (valgrind's callgrind) of vcproto and of Foundation's coders on the same frames: a
# ratio that does not depend on the machine's load, for comparing changes on a busy machine.
# Each contender runs the frames once and three times; the difference, halved, is one round
# (corpus generation and start-up cancel out).
#   Benchmarks/instructions.sh [--protocol VERSION] [--encode] [MIN_BYTES MAX_BYTES [FRAMES]]
# `--protocol 0.5.0`: the 0.5.0 corpus, decoded as 0.5.0 (default 0.2.0, like run.sh).
# `--encode`: MessageEncoder against JSONEncoder instead of the typed decode against JSONDecoder.
#   Benchmarks/instructions.sh --engine [--protocol VERSION] [--workload steady|first-contact|many-open|all-subscribed]
#     [--cache | --footprint] [FRAMES [history|other]]
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
# (D1, reads and writes), last-level data misses (LL) and first-level instruction misses (I1) per frame.
# `--footprint`: instead of the ratio, the code footprint (footprint.py): the distinct 64-byte code lines
# each contender runs in about every frame, and those only the engines run, by function. Unlike the
# simulated instruction misses of `--cache`, it barely moves with where the linker places the code.
#   Benchmarks/instructions.sh --engine-server [--protocol VERSION] [--cache | --footprint] [FRAMES [TYPE]]
# `--engine-server`: the server engine's instructions per client-to-server frame against
# MessageDecoder's (the same frames as `vcproto-bench engine-server`, FRAMES corpus frames, 20000 by
# default; TYPE: only frames of that type), counted only inside each contender's function; the
# engine is a new connection, as in every round of `vcproto-bench engine-server`. `--cache`: also
# the data cache misses per frame, as for `--engine`; `--footprint` as for `--engine`.
set -euo pipefail
cd "$(dirname "$0")"
protocol=0.2.0 encode="" engine="" cache="" workload=steady server="" footprint=""
while [ $# -gt 0 ]; do
  case "$1" in
    --protocol) protocol=$2; shift 2 ;;
    --encode) encode=1; shift ;;
    --engine) engine=1; shift ;;
    --engine-server) server=1; shift ;;
    --cache) cache=1; shift ;;
    --footprint) footprint=$(mktemp -d); shift ;;
    --workload) workload=$2; shift 2 ;;
    *) break ;;
  esac
done
# callgrind's "Collected" line as "Ir I1-misses D1-misses LL-misses" (the misses are 0 without --cache).
collected() {
  sed -n 's/.*Collected : *//p' | awk '{ if (NF >= 9) print $1, $4, $5 + $6, $8 + $9; else print $1, 0, 0, 0 }'
}
[ -z "$footprint" ] || trap 'rm -rf "$footprint"' EXIT
# callgrind's output file for contender $1: kept, with instruction addresses, only for --footprint.
out_file() { if [ -n "$footprint" ]; then echo "--dump-instr=yes --callgrind-out-file=$footprint/$1.out"; else echo "--callgrind-out-file=/dev/null"; fi; }
# The fixed cache geometry of --cache.
cachesim=${cache:+--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=4194304,16,64}
# report HEADING NAME FRAMES ENGINE-COUNTS(4) DECODE-COUNTS(4): the engine(s) NAME over decoding, per frame.
report() {
  python3 - "$cache" "$@" <<'EOF'
import sys
cache, heading, name, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
engine, decode = (tuple(int(v) for v in sys.argv[5 + 4 * i:9 + 4 * i]) for i in range(2))
print(f"{heading} ({n}), instructions per frame: decode {decode[0] / n:,.0f}, "
      f"bytes -> engine -> typed event {engine[0] / n:,.0f}: {name} over decoding {(engine[0] / decode[0] - 1) * 100:.2f} %")
if cache:
    for level, i in (("I1 instruction", 1), ("D1 data", 2), ("LL data", 3)):
        print(f"{level} misses per frame: decode {decode[i] / n:,.1f}, {name} {engine[i] / n:,.1f}")
EOF
}
# compare HEADING NAME COUNTER: contender NAME against decoding over the same $n frames, each counted by
# `COUNTER CONTENDER`: the code footprint with --footprint (footprint.py), else the ratio (report).
compare() {
  if [ -n "$footprint" ]; then
    "$3" "$2" > /dev/null && "$3" decode > /dev/null
    echo "$1:"
    python3 footprint.py "$footprint/$2.out" "$footprint/decode.out" "$n"
  else
    # shellcheck disable=SC2046 # each count is four numbers
    report "$1" "$2" "$n" $("$3" "$2") $("$3" decode)
  fi
}
if [ -n "$server" ]; then
  frames=${1:-20000} only=${2:-}
  ../tools/swift-build-fresh.sh .build release --product vcproto-bench | tail -n 1
  server_count() {
    # shellcheck disable=SC2086 # the cache options are separate words
    valgrind --tool=callgrind $(out_file "$1") --toggle-collect='*ServerEngineBenchmark*measured*' $cachesim \
      .build/release/vcproto-bench engine-server-profile --protocol "$protocol" --frames "$frames" \
      ${only:+--only "$only"} --contender "$1" 2>&1 | collected
  }
  n=$(.build/release/vcproto-bench engine-server-profile --protocol "$protocol" --frames "$frames" \
    ${only:+--only "$only"} --contender decode | sed -n 's/^frames \([0-9]*\).*/\1/p')
  compare "protocol $protocol, server engine, ${only:-all} client frames" engine server_count
  exit 0
fi
if [ -n "$engine" ]; then
  frames=${1:-3000} only=${2:-}
  ../tools/swift-build-fresh.sh .build release --product vcproto-bench | tail -n 1
  engine_count() {
    # shellcheck disable=SC2086 # the cache options are separate words
    valgrind --tool=callgrind $(out_file "$1") --toggle-collect='*EngineBenchmark*measured*' $cachesim \
      .build/release/vcproto-bench engine-profile --protocol "$protocol" --frames "$frames" ${only:+--only "$only"} \
      --workload "$workload" --contender "$1" 2>&1 | collected
  }
  n=$(.build/release/vcproto-bench engine-profile --protocol "$protocol" --frames "$frames" ${only:+--only "$only"} \
    --workload "$workload" --contender decode | sed -n 's/^frames \([0-9]*\).*/\1/p')
  compare "protocol $protocol, $workload workload, ${only:-all} frames" engines engine_count
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
