#!/usr/bin/env bash
# Builds the DocC documentation of the VCProto library with the toolchain's `docc` (no package
# dependency): symbol graphs from the compiler, then `docc convert`. Fails on any warning.
# The catalog (Sources/VCProto/VCProto.docc) belongs to the umbrella module VCProto, whose symbol graph
# holds the symbols of the modules it re-exports (VCProtoJSON, VCProtoCore, VCProtoEnvelope,
# VCProtoConnection): only that graph is converted, so ``Symbol`` links resolve across all of them.
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
  # The umbrella's graph holds the other modules' symbols and doc comments but is written only when
  # the umbrella itself compiles: make it compile every time.
  touch Sources/VCProto/VCProto.swift
  swift build --scratch-path "$scratch" --target VCProto \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
}
build
# The compiler writes the graphs only when it compiles: a build with nothing to do leaves the previous
# run's graphs (kept above) in place. If they are gone anyway, build from scratch once.
if ! ls "$graphs"/VCProto.symbols.json >/dev/null 2>&1; then
  rm -rf "$scratch"
  mkdir -p "$graphs"
  build
fi
umbrella=$scratch/umbrella-graphs
rm -rf "$umbrella"
mkdir -p "$umbrella"
cp "$graphs"/VCProto.symbols.json "$graphs"/VCProto@*.symbols.json "$umbrella"/
docc=$(command -v docc || xcrun --find docc)
"$docc" convert Sources/VCProto/VCProto.docc \
  --additional-symbol-graph-dir "$umbrella" \
  --fallback-display-name VCProto --fallback-bundle-identifier org.voice-code.vcproto \
  --output-dir "$out" --warnings-as-errors
echo "documentation: $out"
