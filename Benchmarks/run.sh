#!/usr/bin/env bash
# Builds the benchmarks in release mode and runs them. `--smoke`: a tiny corpus, one repetition and the
# correctness checks only (what CI runs), on the 0.2.0 and the 0.5.0 corpus; otherwise the full report
# of RESULTS.md (`--protocol 0.5.0` for the 0.5.0 corpus). `peers [options of peers.py]`: vcproto against
# msgspec, orjson and pysimdjson (Benchmarks/peers.py: every ratio, both corpora, in one run); the smoke
# run checks those contenders too (a contender whose pip package is missing is skipped with a message).
# The smoke run also checks the release build's generated readers for whole-value copies
# (reader-copies.sh). `validate [--protocol V] [--megabytes M] [--before BINARY] [--full]`:
# `vcproto validate` end to end against jsonschema-rs (whole processes, alternately:
# Benchmarks/python_baseline.py --whole-only) on the M MB corpus of V (default: 100 MB of 0.5.0) with
# the release `vcproto` of this checkout; `--full` times Python's jsonschema and fastjsonschema too
# (minutes).
set -euo pipefail
cd "$(dirname "$0")"
../tools/swift-build-fresh.sh .build release --product vcproto-bench | tail -1
if [ "${1:-}" = "validate" ]; then
  shift
  version=0.5.0 megabytes=100 before="" only=--whole-only
  while [ $# -gt 0 ]; do
    case "$1" in
      --protocol) version=$2; shift 2 ;;
      --megabytes) megabytes=$2; shift 2 ;;
      --before) before=$2; shift 2 ;;
      --full) only=""; shift ;;
      *) echo "validate: unknown option $1" >&2; exit 64 ;;
    esac
  done
  (cd .. && swift build -c release --product vcproto | tail -1)
  capture="/tmp/vcproto-validate-$version-${megabytes}mb.jsonl"
  .build/release/vcproto-bench corpus --protocol "$version" --megabytes "$megabytes" --output "$capture"
  exec python3 python_baseline.py $only "$capture" ../.build/release/vcproto 0 "$version" $before
fi
if [ "${1:-}" = "--smoke" ]; then
  ./reader-copies.sh
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
