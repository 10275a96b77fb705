#!/usr/bin/env bash
# Checks (default) or applies (--fix) .clang-format on every C++ file of the tree.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode=(--dry-run --Werror)
done_word=clean
if [ "${1:-}" = "--fix" ]; then
  mode=(-i)
  done_word=formatted
fi
mapfile -t files < <(git ls-files '*.h' '*.cpp' '*.cc' | grep -v '^build/')
clang-format "${mode[@]}" "${files[@]}"
echo "check_format: ${#files[@]} files ${done_word}"
