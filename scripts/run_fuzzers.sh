#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz": clang, libFuzzer + ASan + UBSan, build/fuzz) and
# runs every one of them for a bounded time through CTest (label "fuzz", two at a time), each from
# a copy of its seed corpus (fuzz/CMakeLists.txt). A violated invariant, a crash or a sanitizer
# report fails the run and leaves crash-<sha1> in build/fuzz/fuzz (docs/hardening.md).
#   LNGRAD_FUZZ_SECONDS  seconds per fuzzer (default 15: six fuzzers take about a minute on two
#                        cores, after the build)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${LNGRAD_FUZZ_SECONDS:-15}
case "$seconds" in
  '' | *[!0-9]*)
    echo "run_fuzzers.sh: LNGRAD_FUZZ_SECONDS must be a whole number of seconds (got '$seconds')" >&2
    exit 2
    ;;
esac
LNGRAD_PRESET=fuzz ./dev build
# The time per fuzzer is a cache variable of the test definitions only: no recompilation.
cmake -S . -B build/fuzz -DLNGRAD_FUZZ_SECONDS="$seconds" >/dev/null
ctest --preset fuzz
