#!/usr/bin/env bash
# Builds the DocC documentation of the VCProto library with the toolchain's `docc` (no package
# dependency): symbol graphs from the compiler, then `docc convert`. Fails on any warning.
#
#   tools/build-docs.sh [output-dir]      (default .build-docs/VCProto.doccarchive)
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-docs
out=${1:-$scratch/VCProto.doccarchive}
graphs=$scratch/symbol-graphs
rm -rf "$out"
mkdir -p "$graphs"
build() {
  swift build --scratch-path "$scratch" --target VCProto \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
}
build
# The compiler writes the graphs only when it compiles: a build with nothing to do leaves the previous
# run's graphs (kept above) in place. If they are gone anyway, build from scratch once.
if ! ls "$graphs"/VCProto*.symbols.json >/dev/null 2>&1; then
  rm -rf "$scratch"
  mkdir -p "$graphs"
  build
fi
docc=$(command -v docc || xcrun --find docc)
"$docc" convert Sources/VCProto/VCProto.docc \
  --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name VCProto --fallback-bundle-identifier org.voice-code.vcproto \
  --output-dir "$out" --warnings-as-errors
echo "documentation: $out"
