#!/usr/bin/env bash
# Builds the benchmarks in release mode and runs them. `--smoke`: a tiny corpus, one repetition and the
# correctness checks only (what CI runs), on the 0.2.0 and the 0.5.0 corpus; otherwise the full report
# of RESULTS.md (`--protocol 0.5.0` for the 0.5.0 corpus). `peers [options of peers.py]`: vcproto against
# msgspec, orjson and pysimdjson (Benchmarks/peers.py: every ratio, both corpora, in one run); the smoke
# run checks those contenders too (a contender whose pip package is missing is skipped with a message).
set -euo pipefail
cd "$(dirname "$0")"
../tools/swift-build-fresh.sh .build release --product vcproto-bench | tail -1
if [ "${1:-}" = "--smoke" ]; then
  .build/release/vcproto-bench --smoke
  .build/release/vcproto-bench --smoke --protocol 0.5.0
  .build/release/vcproto-bench engine --smoke
  .build/release/vcproto-bench engine --smoke --protocol 0.5.0
  .build/release/vcproto-bench engine-server --smoke
  .build/release/vcproto-bench engine-server --smoke --protocol 0.5.0
  python3 peers.py --smoke
elif [ "${1:-}" = "peers" ]; then
  shift
  python3 peers.py "$@"
else
  .build/release/vcproto-bench "$@"
fi
