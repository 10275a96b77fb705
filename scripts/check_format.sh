#!/usr/bin/env bash
# Checks (default) or applies (--fix) .clang-format on every C++ file of the tree.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode=(--dry-run --Werror)
[ "${1:-}" = "--fix" ] && mode=(-i)
mapfile -t files < <(git ls-files '*.h' '*.cpp' '*.cc' | grep -v '^build/')
clang-format "${mode[@]}" "${files[@]}"
echo "check_format: ${#files[@]} files ${1:+fixed}${1:-clean}"
