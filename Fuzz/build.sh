#!/usr/bin/env bash
# Builds the libFuzzer targets: coverage instrumentation from the Swift frontend's fuzzer sanitizer,
# AddressSanitizer, and libFuzzer linked without its own main (SwiftPM executables have one; it calls
# LLVMFuzzerRunDriver, see Sources/FuzzDriver).
#   Fuzz/build.sh                     every target, into Fuzz/.build
#   TARGETS=fuzz-capture Fuzz/build.sh  only some targets
#   FUZZ_BUILD_DIR=.build-mine Fuzz/build.sh  another build directory (relative to Fuzz/), e.g. while
#                                     a long run uses Fuzz/.build; run.sh honours the same variable
set -euo pipefail
cd "$(dirname "$0")"
runtime=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/clang
fuzzer=$(find "$runtime" -name 'libclang_rt.fuzzer_no_main-*.a' | head -n 1)
[ -n "$fuzzer" ] || { echo "libclang_rt.fuzzer_no_main not found under $runtime" >&2; exit 2; }
for target in ${TARGETS:-fuzz-frame fuzz-envelope fuzz-capture fuzz-auth fuzz-auth-frames fuzz-engine}; do
  ../tools/swift-build-fresh.sh "${FUZZ_BUILD_DIR:-.build}" debug --product "$target" \
    -Xswiftc -sanitize=address -Xswiftc -Xfrontend -Xswiftc -sanitize=fuzzer,address \
    -Xlinker "$fuzzer" -Xlinker -lstdc++ 2>&1 | grep -E "error|warning: |Compiling|Build" | tail -n 3
done
