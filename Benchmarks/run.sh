#!/usr/bin/env bash
# Builds the benchmarks in release mode and runs them. `--smoke`: a tiny corpus, one repetition and the
# correctness checks only (what CI runs); otherwise the full report of RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product vcproto-bench 2>&1 | tail -1
if [ "${1:-}" = "--smoke" ]; then
  .build/release/vcproto-bench --smoke
  .build/release/vcproto-bench engine --smoke
else
  .build/release/vcproto-bench "$@"
fi
