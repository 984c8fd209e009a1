#!/usr/bin/env bash
# swift build for the packages that depend on this one by path (Benchmarks/, Fuzz/), run from the
# package's folder: tools/swift-build-fresh.sh SCRATCH CONFIG [swift build arguments...]
#
# SwiftPM keeps the build plan of a path dependency and does not notice a source file of it renamed
# or removed: the next build stops with "missing inputs". Then the cached plan (SCRATCH/CONFIG.yaml
# and SCRATCH/<triple>/CONFIG/description.json) is deleted and the build run once more; SwiftPM makes
# a new plan and recompiles only what changed. The build's output goes to standard output either way.
set -uo pipefail
scratch=$1 config=$2
shift 2
out=$(swift build -c "$config" --scratch-path "$scratch" "$@" 2>&1)
status=$?
if [ $status -ne 0 ] && grep -q "missing inputs" <<<"$out"; then
  echo "stale build plan of a path dependency: planning again" >&2
  rm -f "$scratch/$config.yaml" "$scratch"/*/"$config"/description.json
  out=$(swift build -c "$config" --scratch-path "$scratch" "$@" 2>&1)
  status=$?
fi
printf '%s\n' "$out"
exit $status
