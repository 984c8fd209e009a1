#!/usr/bin/env bash
# Fuzz/run-all.sh SECONDS   each target in turn for SECONDS
# Fuzz/run-all.sh --smoke   build and run every target ~12 s (what CI runs, about a minute)
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
[ "$seconds" = "--smoke" ] && seconds=12
./build.sh
mkdir -p artifacts
passed=0 failed=0
for target in fuzz-frame fuzz-envelope fuzz-capture fuzz-auth fuzz-auth-frames fuzz-engine; do
  if ./run.sh "$target" "$seconds" > "artifacts/$target.log" 2>&1; then
    passed=$((passed + 1))
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "artifacts/$target.log" | tr '\n' ' ' | sed "s/^/$target: /"
    echo
  else
    failed=$((failed + 1))
    echo "$target: FAILED"; tail -n 30 "artifacts/$target.log"
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
