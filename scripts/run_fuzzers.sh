#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz": clang, libFuzzer + ASan + UBSan, build/fuzz) and
# runs every one of them for a bounded time through CTest (label "fuzz", two at a time), each from
# a copy of its seed corpus (fuzz/CMakeLists.txt). A violated invariant, a crash or a sanitizer
# report fails the run and leaves crash-<sha1> in build/fuzz/fuzz (docs/hardening.md).
#   LNGRAD_FUZZ_SECONDS  seconds per fuzzer (default 15: six fuzzers take about a minute on two
#                        cores, after the build)
#   LNGRAD_FUZZ_SEED     libFuzzer's -seed (default 1: CI explores the same inputs each run, so a
#                        failure repeats; 0: a random seed per run, for longer campaigns)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${LNGRAD_FUZZ_SECONDS:-15}
seed=${LNGRAD_FUZZ_SEED:-1}
case "$seconds" in
  '' | *[!0-9]*)
    echo "run_fuzzers.sh: LNGRAD_FUZZ_SECONDS must be a whole number of seconds (got '$seconds')" >&2
    exit 2
    ;;
esac
case "$seed" in
  '' | *[!0-9]*)
    echo "run_fuzzers.sh: LNGRAD_FUZZ_SEED must be a whole number (got '$seed')" >&2
    exit 2
    ;;
esac
LNGRAD_PRESET=fuzz ./dev build
# The time and seed are cache variables of the test definitions only: no recompilation.
cmake -S . -B build/fuzz -DLNGRAD_FUZZ_SECONDS="$seconds" -DLNGRAD_FUZZ_SEED="$seed" >/dev/null
ctest --preset fuzz
