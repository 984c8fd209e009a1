#!/usr/bin/env bash
# Runs one fuzz target for SECONDS: Fuzz/run.sh TARGET SECONDS [extra libFuzzer flags]
# Corpus in Fuzz/corpus/TARGET (seeded from Vectors/ by make_seeds.py), crashes in Fuzz/artifacts/.
# The binary comes from ${FUZZ_BUILD_DIR:-.build} (see build.sh). See Fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")"
target=$1 seconds=$2
shift 2
mkdir -p "corpus/$target" artifacts
[ -n "$(ls -A "corpus/$target" 2>/dev/null)" ] || python3 make_seeds.py
# Global catalogs live for the whole process by design: no leak reports for them.
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
exec "${FUZZ_BUILD_DIR:-.build}/debug/$target" "corpus/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -max_len=65536 -dict=protocol.dict -artifact_prefix=artifacts/ -print_final_stats=1 "$@"
