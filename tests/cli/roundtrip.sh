#!/usr/bin/env bash
# gen -> run -> verify on one problem. Usage:
#   roundtrip.sh LNGRAD WORKDIR "RUN OPTIONS" "VERIFY OPTIONS" GEN OPTIONS...
# Generates into WORKDIR/gen, runs with RUN OPTIONS (e.g. "--impl native", "--soc Ascend310P3
# --blocks 3") into WORKDIR/out, verifies every output against its golden with VERIFY OPTIONS;
# exits with verify's code (0 = every output passed).
set -eu
lngrad=$1 work=$2 run_opts=$3 verify_opts=$4
shift 4
rm -rf "$work"
"$lngrad" gen --out "$work/gen" "$@"
# shellcheck disable=SC2086
"$lngrad" run --in "$work/gen" --out "$work/out" $run_opts
# shellcheck disable=SC2086
"$lngrad" verify "$work/out" "$work/gen" $verify_opts
